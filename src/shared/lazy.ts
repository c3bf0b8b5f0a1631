// Deferred loading: heavy modules are imported on first use, off the cold-start path.

/** Wraps a loader (usually `() => import('…')`) in a memoized async getter; a failed load is retried next time. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

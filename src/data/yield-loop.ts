// Lets long synchronous scans give the event loop a turn now and then.

/** Resolves on the next macrotask turn. */
export function nextTurn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** A counter that yields to the event loop every `every` ticks. */
export function makeTicker(every = 2000): () => Promise<void> | undefined {
  let n = 0;
  return () => (++n % every === 0 ? nextTurn() : undefined);
}

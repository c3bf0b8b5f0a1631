// Retention passes shared by the audit table and task flows: delete in small batches, at most a
// pass's worth at a time (so a pass never holds the database's write lock for long; a backlog is
// worked off over later passes), once now and then on an unref'd timer stopped at shutdown.

/** Calls `pruneBatch(limit)` until it deletes fewer than asked or `max` went; returns how many went. */
export function pruneInBatches(pruneBatch: (limit: number) => number, max: number, batch: number): number {
  let pruned = 0;
  while (pruned < max) {
    const want = Math.min(batch, max - pruned);
    const n = pruneBatch(want);
    pruned += n;
    if (n < want) break;
  }
  return pruned;
}

/** The ISO time `days` days before `now`: rows older than it are past retention. */
export function retentionCutoff(days: number, now: Date): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}

/** Runs `pass` now and every `everyMs` on an unref'd timer; `onClose` receives the stop. */
export function runPeriodically(pass: () => void, everyMs: number, onClose: (stop: () => void) => void): void {
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  onClose(() => clearInterval(timer));
}

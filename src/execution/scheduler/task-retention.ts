// Task retention (scheduler.retention_days): ended tasks (completed, failed, cancelled) older than the
// retention are deleted with their steps, context and stored outputs, at start-up and then every
// minute, in small batches and at most PASS_TASKS per pass so a pass never holds the write lock for long.
import type { TaskStore } from './env.js';

const EVERY_MS = 60_000;
const BATCH_TASKS = 100;
const PASS_TASKS = 2_000;

/** Deletes ended tasks last updated more than `days` ago (at most `maxTasks`); returns how many went. */
export function pruneEndedTasks(store: TaskStore, days: number, now: Date, maxTasks = PASS_TASKS): number {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let pruned = 0;
  while (pruned < maxTasks) {
    const batch = Math.min(BATCH_TASKS, maxTasks - pruned);
    const n = store.tasks.atomic(() => store.tasks.pruneEnded(cutoff, batch));
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

export interface RetentionDeps {
  store: TaskStore;
  days: number;
  now: () => Date;
  log(event: string, data: Record<string, unknown>): void;
  onClose(fn: () => void): void;
}

/** Runs a pass now and every minute on an unref'd timer, stopped at shutdown. */
export function startTaskRetention(d: RetentionDeps): void {
  const pass = () => {
    try {
      const tasks = pruneEndedTasks(d.store, d.days, d.now());
      if (tasks > 0) d.log('tasks_pruned', { tasks });
    } catch (err) {
      d.log('tasks_prune_failed', { err: (err as Error).message });
    }
  };
  pass();
  const timer = setInterval(pass, EVERY_MS);
  timer.unref();
  d.onClose(() => clearInterval(timer));
}

// Task retention (scheduler.retention_days): ended tasks (completed, failed, cancelled) older than the
// retention are deleted with their steps, context and stored outputs, at start-up and then every
// minute, in small batches and at most PASS_TASKS per pass so a pass never holds the write lock for long.
import { pruneInBatches, retentionCutoff, runPeriodically } from '../../shared/bounded-prune.js';
import type { TaskStore } from './env.js';

const EVERY_MS = 60_000;
const BATCH_TASKS = 100;
const PASS_TASKS = 2_000;

/** Deletes ended tasks last updated more than `days` ago (at most `maxTasks`); returns how many went. */
export function pruneEndedTasks(store: TaskStore, days: number, now: Date, maxTasks = PASS_TASKS): number {
  const cutoff = retentionCutoff(days, now);
  return pruneInBatches((limit) => store.tasks.atomic(() => store.tasks.pruneEnded(cutoff, limit)), maxTasks, BATCH_TASKS);
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
  runPeriodically(pass, EVERY_MS, d.onClose);
}

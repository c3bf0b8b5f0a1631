// Applies a task event through the state machine and records it with a compare-and-swap.
import type { TaskStore } from './env.js';
import { taskTransition, type TaskEvent } from './transitions.js';
import type { TaskRecord } from './types.js';

export interface EventOptions {
  reason?: string | null;
  dryRun?: boolean;
  currentStep?: number;
}

/** Moves `task` by `event`; throws IllegalTransitionError when the machine forbids it. */
export function applyTaskEvent(store: TaskStore, task: TaskRecord, event: TaskEvent, opts: EventOptions = {}): TaskRecord {
  const to = taskTransition(task.status, event);
  const now = new Date().toISOString();
  const ok = store.tasks.setStatus(task.id, [task.status], to, { reason: opts.reason ?? null, now, dryRun: opts.dryRun, currentStep: opts.currentStep });
  // Callers hold BEGIN IMMEDIATE, so the row cannot change under them; a miss is a bug.
  if (!ok) throw new Error(`task ${task.id} changed while applying ${event}`);
  return store.tasks.get(task.id)!;
}

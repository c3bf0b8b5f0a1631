// task_resume, task_cancel and task_confirm: state changes requested by a caller.
import { invalidParams, notFound } from '../../shared/errors.js';
import type { TaskStore } from './env.js';
import { applyTaskEvent } from './task-events.js';
import { stepTransition } from './transitions.js';
import type { TaskRecord } from './types.js';

export interface ResumeInput {
  fromStep?: number;
  /** Replaces the parameters of the step resumed from. */
  parameters?: Record<string, unknown>;
}

/** Loads a task or throws not_found. */
export function requireTask(store: TaskStore, id: string): TaskRecord {
  const task = store.tasks.get(id);
  if (!task) throw notFound(`no task ${id}`, 'list tasks with task_list');
  return task;
}

/** Resets the failed (or chosen) step and everything after it to pending and sets the task running. */
export function resumeTask(store: TaskStore, id: string, input: ResumeInput): TaskRecord {
  return store.tasks.atomic(() => {
    const task = requireTask(store, id);
    if (task.status !== 'paused' && task.status !== 'failed') {
      throw invalidParams(`task ${id} is ${task.status}; only a paused or failed task can be resumed`);
    }
    const from = input.fromStep ?? Math.max(task.currentStep, 1);
    const step = store.steps.forTask(id).find((s) => s.stepNumber === from);
    if (!step) throw invalidParams(`from_step ${from} is not a step of task ${id} (it has ${task.stepCount})`);
    stepTransition(step.status, 'reset');
    store.steps.resetFrom(id, from);
    if (input.parameters) store.steps.setParameters(step.id, input.parameters);
    return applyTaskEvent(store, task, 'resume', { currentStep: from });
  });
}

/** Cancels a task: pending steps become skipped; an executing step is stopped by its runner. */
export function cancelTask(store: TaskStore, id: string): TaskRecord {
  return store.tasks.atomic(() => {
    const task = requireTask(store, id);
    if (!['pending', 'running', 'paused'].includes(task.status)) throw invalidParams(`task ${id} is already ${task.status}`);
    store.steps.skipPending(id, 'cancelled');
    return applyTaskEvent(store, task, 'cancel', { reason: 'cancelled' });
  });
}

/** Turns a completed dry run into a real run from step 1. */
export function confirmTask(store: TaskStore, id: string): TaskRecord {
  return store.tasks.atomic(() => {
    const task = requireTask(store, id);
    if (!task.dryRun || task.status !== 'completed') {
      throw invalidParams(`task ${id} is not a completed dry run (status ${task.status}, dry_run ${task.dryRun})`);
    }
    store.steps.resetFrom(id, 1);
    const pending = applyTaskEvent(store, task, 'confirm', { dryRun: false, currentStep: 0 });
    return applyTaskEvent(store, pending, 'start');
  });
}

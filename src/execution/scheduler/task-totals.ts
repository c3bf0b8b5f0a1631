// The task totals of SPEC §4.1a checked before a task is stored or made active again: steps per
// task, active tasks per state directory, and the size of what a caller puts into a task.
import { AppError } from '../../shared/errors.js';
import type { TaskStore } from './env.js';
import type { StepSpec, TaskContext } from './types.js';

function tooLarge(rule: string, message: string, hint: string): AppError {
  return new AppError('too_large', message, { rule, hint });
}

/** Refuses more steps than scheduler.max_steps. */
export function checkStepCount(store: TaskStore, steps: number): void {
  const max = store.limits.maxSteps;
  if (steps <= max) return;
  throw tooLarge('scheduler.max_steps', `the task has ${steps} steps, over the scheduler.max_steps limit of ${max}`,
    `split the work into tasks of at most ${max} steps (start the next when one completes), or raise scheduler.max_steps in the config`);
}

/** Refuses when scheduler.max_active_tasks tasks are already pending, running or paused. Call inside the store's transaction. */
export function checkActiveRoom(store: TaskStore): void {
  const max = store.limits.maxActiveTasks;
  const active = store.tasks.activeCount();
  if (active < max) return;
  throw tooLarge('scheduler.max_active_tasks', `${active} tasks are already pending, running or paused in this state directory, the scheduler.max_active_tasks limit of ${max}`,
    'wait for tasks to finish (task_list), cancel the ones you no longer need (task_cancel), or raise scheduler.max_active_tasks in the config');
}

/** Refuses an initial context, or step parameters, larger than scheduler.max_context_bytes. */
export function checkDefinitionSize(store: TaskStore, context: TaskContext | undefined, steps: readonly StepSpec[]): void {
  const max = store.limits.maxContextBytes;
  const ctxBytes = Buffer.byteLength(JSON.stringify(context ?? {}));
  if (ctxBytes > max) {
    throw tooLarge('scheduler.max_context_bytes', `the initial context is ${ctxBytes} bytes, over the scheduler.max_context_bytes limit of ${max}`,
      'pass paths or small values in context and let steps read the data (read_file, run_command), or raise scheduler.max_context_bytes in the config');
  }
  checkParametersSize(store, steps.map((s) => s.parameters), 'the step parameters together are');
}

/** Refuses parameters (of all steps, or one replacement) larger than scheduler.max_context_bytes. */
export function checkParametersSize(store: TaskStore, params: readonly unknown[], what = 'the parameters are'): void {
  const max = store.limits.maxContextBytes;
  const bytes = params.reduce<number>((n, p) => n + Buffer.byteLength(JSON.stringify(p ?? {})), 0);
  if (bytes <= max) return;
  throw tooLarge('scheduler.max_context_bytes', `${what} ${bytes} bytes, over the scheduler.max_context_bytes limit of ${max}`,
    'pass large data through files the steps read, or raise scheduler.max_context_bytes in the config');
}

// The task and step state machines: every status change in the scheduler goes through here.
import type { StepStatus, TaskStatus } from './types.js';

export type TaskEvent = 'start' | 'complete' | 'pause' | 'fail' | 'cancel' | 'resume' | 'confirm';
export type StepEvent = 'claim' | 'succeed' | 'fail' | 'skip' | 'release' | 'reset';

// resume also accepts `failed` (a task stopped by on_failure: abort can be retried);
// confirm applies only to a completed dry run (checked by the caller, which knows dry_run).
const TASK: Record<TaskEvent, { from: readonly TaskStatus[]; to: TaskStatus }> = {
  start: { from: ['pending'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  pause: { from: ['running'], to: 'paused' },
  fail: { from: ['running'], to: 'failed' },
  cancel: { from: ['pending', 'running', 'paused'], to: 'cancelled' },
  resume: { from: ['paused', 'failed'], to: 'running' },
  confirm: { from: ['completed'], to: 'pending' },
};

// release: an executing step goes back to pending (crash rule for re-runnable steps, busy gate).
// reset: a finished step goes back to pending (task_resume from a step, task_confirm).
// skip from pending: steps left when a task is cancelled.
const STEP: Record<StepEvent, { from: readonly StepStatus[]; to: StepStatus }> = {
  claim: { from: ['pending'], to: 'executing' },
  succeed: { from: ['executing'], to: 'success' },
  fail: { from: ['executing'], to: 'failed' },
  skip: { from: ['executing', 'pending'], to: 'skipped' },
  release: { from: ['executing'], to: 'pending' },
  reset: { from: ['failed', 'success', 'skipped', 'pending'], to: 'pending' },
};

/** A transition the state machine does not allow: a bug in the caller, never user input. */
export class IllegalTransitionError extends Error {
  constructor(kind: 'task' | 'step', from: string, event: string) {
    super(`illegal ${kind} transition: ${event} from ${from}`);
    this.name = 'IllegalTransitionError';
  }
}

/** The task status after `event`, or throws IllegalTransitionError. */
export function taskTransition(from: TaskStatus, event: TaskEvent): TaskStatus {
  const rule = TASK[event];
  if (!rule.from.includes(from)) throw new IllegalTransitionError('task', from, event);
  return rule.to;
}

/** The step status after `event`, or throws IllegalTransitionError. */
export function stepTransition(from: StepStatus, event: StepEvent): StepStatus {
  const rule = STEP[event];
  if (!rule.from.includes(from)) throw new IllegalTransitionError('step', from, event);
  return rule.to;
}

/** The statuses a task may be in before `event` (for compare-and-swap updates). */
export function taskSources(event: TaskEvent): readonly TaskStatus[] {
  return TASK[event].from;
}

/** True for statuses a task never leaves on its own. */
export function isTaskFinal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

// task_resume, task_cancel and task_confirm: state changes requested by a caller.
import { describePolicy, parseRecord } from '../../config/policy-record.js';
import { AppError, invalidParams, notFound } from '../../shared/errors.js';
import type { TaskStore } from './env.js';
import { applyTaskEvent } from './task-events.js';
import { stepTransition } from './transitions.js';
import type { TaskRecord } from './types.js';

export interface ResumeInput {
  fromStep?: number;
  /** Replaces the parameters of the step resumed from. */
  parameters?: Record<string, unknown>;
  /** The caller's policy fingerprint (agent tools): a task bound to another policy is refused. */
  policyFp?: string;
}

/** Refuses to steer a task bound to another policy: its steps would run under that policy, not the caller's. */
export function requireSamePolicy(task: TaskRecord, policyFp: string | undefined, what: string): void {
  if (policyFp === undefined || task.policyFp === policyFp) return;
  throw new AppError('policy_denied', `task ${task.id} is bound to another policy (${describePolicy(parseRecord(task.policy))}); this server cannot ${what} it`, {
    rule: 'task.other_policy',
    hint: 'steer it from a server started with that policy (same profile, roots, network and sandbox settings)',
  });
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
    requireSamePolicy(task, input.policyFp, 'resume');
    if (task.status !== 'paused' && task.status !== 'failed') {
      throw invalidParams(`task ${id} is ${task.status}; only a paused or failed task can be resumed`);
    }
    const from = input.fromStep ?? Math.max(task.currentStep, 1);
    const step = store.steps.forTask(id).find((s) => s.stepNumber === from);
    if (!step) throw invalidParams(`from_step ${from} is not a step of task ${id} (it has ${task.stepCount})`);
    // A confirmed dry run runs only the plan the person saw: its steps' parameters are part of it.
    if (input.parameters && step.plan) {
      throw new AppError('policy_denied', `step ${from} of task ${id} runs from a confirmed dry run; new parameters would run something the dry run never showed`, {
        rule: 'task.plan_changed',
        hint: 'resume without parameters, or create a new task with dry_run: true and confirm that plan',
      });
    }
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

/**
 * Turns a completed dry run into a real run from step 1 (only from a caller bound to the task's policy, when given).
 * The steps keep the plan the dry run recorded; each is checked against it before it runs (plan-check.ts).
 */
export function confirmTask(store: TaskStore, id: string, policyFp?: string): TaskRecord {
  return store.tasks.atomic(() => {
    const task = requireTask(store, id);
    requireSamePolicy(task, policyFp, 'confirm');
    if (!task.dryRun || task.status !== 'completed') {
      throw invalidParams(`task ${id} is not a completed dry run (status ${task.status}, dry_run ${task.dryRun})`);
    }
    requirePlans(store, id);
    store.steps.resetFrom(id, 1);
    const pending = applyTaskEvent(store, task, 'confirm', { dryRun: false, currentStep: 0 });
    return applyTaskEvent(store, pending, 'start');
  });
}

/** Every step of a dry run must carry the plan it showed: the confirmed run is checked against it. */
function requirePlans(store: TaskStore, id: string): void {
  const missing = store.steps.forTask(id).filter((s) => s.plan === null).map((s) => s.stepNumber);
  if (missing.length === 0) return;
  throw new AppError('invalid_params', `task ${id}'s dry run recorded no plan for step ${missing.join(', ')} (a dry run made before plans were recorded), so task_confirm cannot run exactly what it showed`, {
    rule: 'task.plan_missing',
    hint: 'run a new dry run (task_create with dry_run: true) and confirm that one',
  });
}

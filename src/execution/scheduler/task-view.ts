// Bounded views of tasks for task_status, task_list and the CLI.
import { describePolicy, parseRecord, waitingForPolicy } from '../../config/policy-record.js';
import { AppError } from '../../shared/errors.js';
import type { TaskStore } from './env.js';
import { requireTask } from './task-actions.js';
import type { StepRecord, TaskRecord, TaskStatus } from './types.js';

export const STEP_RESULT_CAP = 8 * 1024;
const CONTEXT_CAP = 32 * 1024;
const TOTAL_CAP = 96 * 1024;

/** A JSON value cut to `cap` bytes: the value itself when it fits, else a preview with a note. */
export function capJson(value: unknown, cap: number): { value: unknown; truncated: boolean } {
  if (value === null || value === undefined) return { value: null, truncated: false };
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes <= cap) return { value, truncated: false };
  const preview = Buffer.from(text).subarray(0, cap).toString('utf8');
  return { value: { truncated: true, bytes, preview, note: `result is ${bytes} bytes; first ${cap} shown. The full row is in task_steps.result` }, truncated: true };
}

/**
 * task_status: the task, its context and every step, with results capped per step and in total.
 * A viewer of another policy gets none of that content (its results come from files and commands
 * of that policy's roots): the refusal says the task's status, which task_list shows too.
 */
export function taskStatusView(store: TaskStore, id: string, viewerFp?: string): Record<string, unknown> & { truncated: boolean } {
  const task = requireTask(store, id);
  requireOwnContent(task, viewerFp);
  const ctx = contextView(store.tasks.context(id));
  let budget = TOTAL_CAP;
  let truncated = ctx.truncated;
  const steps = store.steps.forTask(id).map((s) => {
    const r = capJson(s.result, Math.min(STEP_RESULT_CAP, Math.max(budget, 256)));
    budget -= Buffer.byteLength(JSON.stringify(r.value));
    truncated ||= r.truncated;
    return stepView(s, r.value);
  });
  return { ...taskSummary(task, viewerFp), context: ctx.value ?? {}, steps, truncated };
}

/** Refuses (task.other_policy) showing a task's context and step results to a viewer of another policy; status stays in the message. */
function requireOwnContent(t: TaskRecord, viewerFp: string | undefined): void {
  if (viewerFp === undefined || t.policyFp === viewerFp) return;
  const wait = policyWait(t, viewerFp);
  const status = `status ${t.status}, step ${t.currentStep} of ${t.stepCount}${wait ? `; ${wait}` : ''}`;
  throw new AppError('policy_denied', `task ${t.id} is bound to another policy (${describePolicy(parseRecord(t.policy))}); its context and step results are not shown to this server (${status})`, {
    rule: 'task.other_policy',
    hint: 'task_list shows its status; read its results from a server started with that policy (same profile, roots, network and sandbox settings)',
  });
}

/** The context with each key capped like a step result and all of them within CONTEXT_CAP: every key stays visible. */
function contextView(ctx: Record<string, unknown>): { value: Record<string, unknown>; truncated: boolean } {
  let budget = CONTEXT_CAP;
  let truncated = false;
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ctx)) {
    const r = capJson(v, Math.min(STEP_RESULT_CAP, Math.max(budget, 256)));
    budget -= Buffer.byteLength(JSON.stringify(r.value ?? null));
    truncated ||= r.truncated;
    value[k] = r.value;
  }
  return { value, truncated };
}

function stepView(s: StepRecord, result: unknown): Record<string, unknown> {
  return {
    step_number: s.stepNumber, action: s.action, parameters: s.parameters, status: s.status, result, error: s.error,
    ...(s.note ? { note: s.note } : {}), attempts: s.attempts, started_at: s.startedAt, ended_at: s.endedAt,
    ...(s.jobId ? { job_id: s.jobId } : {}),
  };
}

/** The fields of a task shared by every view; a viewer of another policy is told the task waits for its own. */
export function taskSummary(t: TaskRecord, viewerFp?: string): Record<string, unknown> {
  const reason = t.statusReason ?? policyWait(t, viewerFp);
  return {
    task_id: t.id, name: t.name, status: t.status, ...(reason ? { status_reason: reason } : {}),
    dry_run: t.dryRun, current_step: t.currentStep, step_count: t.stepCount, created_at: t.createdAt, last_updated: t.lastUpdated,
  };
}

/** task_list: newest first, `cursor` is the last task id of the previous page. */
export function taskListView(store: TaskStore, q: { status?: TaskStatus; limit?: number; cursor?: string }, viewerFp?: string) {
  const limit = q.limit ?? 20;
  const rows = store.tasks.list({ status: q.status, limit: limit + 1, before: q.cursor });
  const page = rows.slice(0, limit);
  return { tasks: page.map((t) => taskSummary(t, viewerFp)), next_cursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** A running or pending task bound to another policy than the viewer's waits for a server of its own. */
function policyWait(t: TaskRecord, viewerFp: string | undefined): string | undefined {
  if (viewerFp === undefined || t.policyFp === viewerFp || (t.status !== 'running' && t.status !== 'pending')) return undefined;
  return waitingForPolicy(parseRecord(t.policy));
}

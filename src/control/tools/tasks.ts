// task_create / task_status / task_list / task_resume / task_cancel / task_confirm (SPEC §3.4).
// Definitions load with zod only; the scheduler and its store load on the first call.
import { z } from 'zod';
import { MAX_STEPS } from '../../execution/scheduler/task-limits.js';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { serverPolicy } from '../server-policy.js';
import { defineTool, type ToolDef } from '../tool.js';

const service = lazy(() => import('../../execution/scheduler/service.js'));
const actions = lazy(() => import('../../execution/scheduler/task-actions.js'));
const views = lazy(() => import('../../execution/scheduler/task-view.js'));
const totals = lazy(() => import('../../execution/scheduler/task-reactivate.js'));
const creation = lazy(async () => {
  const [{ createTask }, { toolMap }, { buildTools }] = await Promise.all([
    import('../../execution/scheduler/create-task.js'),
    import('../../execution/scheduler/env.js'),
    import('../registry.js'),
  ]);
  return { createTask, toolMap, buildTools };
});

const STATUSES = ['pending', 'running', 'completed', 'failed', 'paused', 'cancelled'] as const;
const taskId = () => z.string().min(1).max(64);
const ro = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const rw = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };

const stepSchema = () =>
  z
    .object({
      action: z.string().min(1).describe('tool name, e.g. run_command or an adapter'),
      parameters: z.record(z.string(), z.unknown()).default({}).describe('tool arguments; strings may use {{context.key.path}}'),
      save_as: z.string().regex(/^[A-Za-z_][\w-]*$/).optional().describe('store the result under context[save_as]'),
      run_if: z.enum(['success', 'failure', 'always']).optional().describe('vs the previous step that ran; default always'),
      on_failure: z.enum(['pause', 'continue', 'abort']).optional().describe('default pause'),
      mode: z.enum(['sync', 'job']).optional().describe('job = durable job (default if timeout_ms > 30000)'),
      timeout_ms: z.number().int().positive().optional(),
    })
    .strict();

const stateShape = () => ({ task_id: z.string(), status: z.enum(STATUSES), status_reason: z.string().optional(), dry_run: z.boolean() });
const summary = () => z.object({ ...stateShape(), name: z.string().nullable(), current_step: z.number(), step_count: z.number(), created_at: z.string(), last_updated: z.string() });

/** The task tools: create and steer multi-step flows run by the in-process scheduler. */
export function taskTools(deps: AppDeps): ToolDef[] {
  const store = async () => (await service()).taskStoreOf(deps);
  const started = async (id: string) => {
    const { ensureScheduler, taskStoreOf } = await service();
    ensureScheduler(deps).runner.wake();
    return stateOf(taskStoreOf(deps).tasks.get(id)!);
  };
  const create = defineTool({
    name: 'task_create',
    description:
      `Start a flow of up to ${deps.config.scheduler.max_steps} tool steps in the background (at most ${deps.config.scheduler.max_active_tasks} tasks active at once; beyond either: too_large); returns task_id at once. Step results go to context[save_as]; later parameters use {{context.key.path}}. A failed step pauses the task (on_failure) for task_resume. dry_run runs only the steps that read and checks the others against policy, showing the argv each would run. A result that would put the context over ${deps.config.scheduler.max_context_bytes} bytes is saved as a reference ($ref) that {{context.key.…}} still resolves. Poll task_status.`,
    schemas: () => ({
      input: z.object({
        name: z.string().max(200).optional(),
        steps: z.array(stepSchema()).min(1).max(MAX_STEPS),
        context: z.record(z.string(), z.unknown()).optional(),
        dry_run: z.boolean().optional(),
      }).strict(),
      output: stateShape(),
    }),
    annotations: rw,
    async handler(args) {
      const { createTask, toolMap, buildTools } = await creation();
      const tools = toolMap(buildTools(deps));
      const dryRun = args.dry_run ?? deps.config.scheduler.default_dry_run;
      const task = createTask(await store(), tools, { name: args.name, steps: args.steps, context: args.context, dryRun, policy: serverPolicy(deps) });
      return { data: await started(task.id) };
    },
  });
  const status = defineTool({
    name: 'task_status',
    description: 'A task with its context and every step: parameters, status, result (8 KiB each, marked truncated), error, timing, job_id.',
    schemas: () => ({
      input: z.object({ task_id: taskId() }).strict(),
      output: { ...stateShape(), name: z.string().nullable(), current_step: z.number(), step_count: z.number(), context: z.record(z.string(), z.unknown()), steps: z.array(z.record(z.string(), z.unknown())), truncated: z.boolean() },
    }),
    annotations: ro,
    lane: 'status',
    async handler(args) {
      const { taskStatusView } = await views();
      const view = taskStatusView(await store(), args.task_id, serverPolicy(deps).fingerprint);
      return { data: view, truncated: view.truncated };
    },
  });
  const list = defineTool({
    name: 'task_list',
    description: 'Tasks, newest first; filter by status; page with cursor (next_cursor).',
    schemas: () => ({
      input: z.object({ status: z.enum(STATUSES).optional(), limit: z.number().int().min(1).max(100).optional(), cursor: z.string().optional() }).strict(),
      output: { tasks: z.array(summary()), next_cursor: z.string().nullable() },
    }),
    annotations: ro,
    lane: 'status',
    async handler(args) {
      const { taskListView } = await views();
      return { data: taskListView(await store(), args, serverPolicy(deps).fingerprint) };
    },
  });
  const resume = defineTool({
    name: 'task_resume',
    description: 'Continue a paused or failed task: re-runs the step it stopped on (or from_step), with new parameters if given (they replace that step\'s parameters), then the rest.',
    schemas: () => ({
      input: z.object({ task_id: taskId(), from_step: z.number().int().min(1).optional(), parameters: z.record(z.string(), z.unknown()).optional() }).strict(),
      output: stateShape(),
    }),
    annotations: rw,
    async handler(args) {
      const [{ resumeTask }, { reactivate }] = await Promise.all([actions(), totals()]);
      const st = await store();
      const task = reactivate(st, args.task_id, () => resumeTask(st, args.task_id, { fromStep: args.from_step, parameters: args.parameters, policyFp: serverPolicy(deps).fingerprint }), args.parameters);
      return { data: await started(task.id) };
    },
  });
  const cancel = defineTool({
    name: 'task_cancel',
    description: 'Cancel a task: the running step is stopped (its job cancelled), the remaining steps are skipped.',
    schemas: () => ({
      input: z.object({ task_id: taskId() }).strict(),
      output: stateShape(),
    }),
    annotations: rw,
    async handler(args) {
      const [{ cancelTask }, { ensureScheduler }] = await Promise.all([actions(), service()]);
      const task = cancelTask(await store(), args.task_id);
      ensureScheduler(deps).runner.cancelTask(task.id);
      return { data: stateOf(task) };
    },
  });
  const confirm = defineTool({
    name: 'task_confirm',
    description: 'Run a completed dry-run task for real, from step 1.',
    schemas: () => ({
      input: z.object({ task_id: taskId() }).strict(),
      output: stateShape(),
    }),
    annotations: rw,
    async handler(args) {
      const [{ confirmTask }, { reactivate }] = await Promise.all([actions(), totals()]);
      const st = await store();
      const task = reactivate(st, args.task_id, () => confirmTask(st, args.task_id, serverPolicy(deps).fingerprint));
      return { data: await started(task.id) };
    },
  });
  return [create, status, list, resume, cancel, confirm];
}

function stateOf(t: { id: string; status: (typeof STATUSES)[number]; statusReason: string | null; dryRun: boolean }) {
  return { task_id: t.id, status: t.status, ...(t.statusReason ? { status_reason: t.statusReason } : {}), dry_run: t.dryRun };
}

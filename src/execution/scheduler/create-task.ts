// task_create: validates the steps against the exposed tools, stores the task and starts it.
import { ulid } from 'ulid';
import { canonicalJson, type BoundPolicy } from '../../config/policy-record.js';
import { parseArgs } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import { AppError, invalidParams } from '../../shared/errors.js';
import { hasRefs } from './context-refs.js';
import type { TaskStore } from './env.js';
import { effectiveMode } from './step-plan.js';
import { applyTaskEvent } from './task-events.js';
import { MAX_STEPS } from './task-limits.js';
import { checkActiveRoom, checkDefinitionSize, checkStepCount } from './task-totals.js';
import type { StepSpec, TaskContext, TaskRecord } from './types.js';

/** The schema's ceiling on steps (defined in task-limits.ts); scheduler.max_steps is the limit. */
export { MAX_STEPS };

export interface CreateInput {
  name?: string;
  steps: StepSpec[];
  context?: TaskContext;
  dryRun: boolean;
  /** The creating server's policy: the task is bound to it (SPEC §3.4). */
  policy: BoundPolicy;
}

/** Stores a new task with its steps and moves it to running; throws invalid_params naming the step. */
export function createTask(store: TaskStore, tools: Map<string, ToolDef>, input: CreateInput): TaskRecord {
  if (input.steps.length === 0) throw invalidParams('a task has at least one step (got 0)');
  checkStepCount(store, input.steps.length);
  checkDefinitionSize(store, input.context, input.steps);
  const steps = input.steps.map((s, i) => validateStep(tools, s, i + 1));
  const id = ulid();
  return store.tasks.atomic(() => {
    // Counted inside BEGIN IMMEDIATE: concurrent creators cannot both take the last place.
    checkActiveRoom(store);
    const createdAt = new Date().toISOString();
    store.tasks.insert({ id, name: input.name ?? null, createdAt, status: 'pending', dryRun: input.dryRun, stepCount: steps.length, context: input.context ?? {},
      policy: canonicalJson(input.policy.record), policyFp: input.policy.fingerprint });
    store.steps.insert(id, steps);
    return applyTaskEvent(store, store.tasks.get(id)!, 'start');
  });
}

function validateStep(tools: Map<string, ToolDef>, s: StepSpec, n: number): StepSpec {
  if (s.action.startsWith('task_')) {
    throw invalidParams(`step ${n}: action '${s.action}' is a task tool; a task step cannot create or control tasks`);
  }
  const def = tools.get(s.action);
  if (!def) throw invalidParams(`step ${n}: unknown action '${s.action}'`, 'use the name of a tool from tools/list, e.g. run_command');
  const mode = effectiveMode(s);
  if (mode === 'job' && s.action !== 'run_command') throw invalidParams(`step ${n}: mode "job" is only for run_command steps (got '${s.action}')`);
  // Parameters without context references can be checked now; the others are checked when they run.
  if (!hasRefs(s.parameters)) {
    const probe = mode === 'job' ? { ...s.parameters, timeout_ms: undefined } : s.parameters;
    try {
      parseArgs(def, JSON.parse(JSON.stringify(probe)));
    } catch (err) {
      if (err instanceof AppError) throw invalidParams(`step ${n}: ${err.message}`);
      throw err;
    }
  }
  return { ...s, mode };
}

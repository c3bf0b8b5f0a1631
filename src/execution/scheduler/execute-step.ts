// Runs one claimed step: run_if, context references, then dry run, durable job, or a tool call.
import { AppError } from '../../shared/errors.js';
import { MissingContextError, type ResolveOptions } from './context-refs.js';
import { dryRunStep, RAN_READ_ONLY, readsOnly, type DryRunInput } from './dry-run.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import { runJobStep } from './job-step.js';
import { hydrateRefs } from './saved-results.js';
import { resolveStepArgs, type StepArgs } from './step-args.js';
import { checkPlan } from './plan-check.js';
import { pinPlan, shownOf } from './plan-pin.js';
import { shouldRun } from './step-plan.js';
import { outcomeOf, runSync, type StepRun } from './sync-step.js';
import type { StepOutcome, StepPlan, StepRecord, TaskContext } from './types.js';

export { outcomeOf, type StepRun };

/** Executes a step this runner owns and returns how it ended. */
export async function executeStep(env: SchedulerEnv, step: StepRecord, owner: string, signal: AbortSignal): Promise<StepRun> {
  // A lease that ran out before the step started may have been taken over: confirm it before any effect.
  if (Date.now() >= (step.leaseUntil ?? 0) - 1000 && !env.steps.renew(step.id, owner, Date.now() + env.leaseMs)) return 'abandon';
  const task = env.tasks.get(step.taskId)!;
  // Claims and recovery already filter by policy; this re-check makes "never under another policy" local to the run.
  if (task.policyFp !== env.policyFp) return 'abandon';
  if (step.mode === 'job' && step.jobId) return runJobStep(env, { step, owner, args: step.parameters, signal });
  if (!task.dryRun) {
    const previous = env.steps.previousOutcome(step.taskId, step.stepNumber);
    if (!shouldRun(step.runIf, previous)) {
      return { status: 'skipped', result: null, error: null, note: `run_if ${step.runIf}: previous step ${previous ?? 'none'}` };
    }
  }
  const def = env.tools().get(step.action);
  if (!def) return failedOutcome(`action '${step.action}' is not a tool this server exposes; check [adapters] enabled`);
  const ctx = hydrateRefs(env, step.taskId, task.dryRun ? shadowContext(env, step) : env.tasks.context(step.taskId), step.parameters);
  const opts = task.dryRun ? { placeholders: savedKeys(env, step) } : {};
  const resolved = resolveOrFail(step, ctx, opts);
  if (!('args' in resolved)) return resolved;
  const input: DryRunInput = { step, def, args: resolved.args, command: resolved.command, signal };
  // The plan as the dry run shows it (before the whole context is passed to a tool that takes it).
  const shown = shownOf(input.args, input.command);
  const pin = (read: boolean) => pinPlan(step.parameters, ctx, opts, read, shown);
  const refused = task.dryRun ? null : checkPlan(env, input, ctx);
  if (refused) return refused;
  if ('context' in def.input.shape && input.args.context === undefined) input.args.context = ctx;
  if (task.dryRun) return shadowStep(env, input, pin);
  if (step.mode === 'job') return runJobStep(env, { step, owner, args: input.args, signal });
  return runSync(env, step, def, input.args, signal);
}

function resolveOrFail(step: StepRecord, ctx: TaskContext, opts: ResolveOptions): StepArgs | StepOutcome {
  try {
    return resolveStepArgs(step.action, step.parameters, ctx, opts);
  } catch (err) {
    if (err instanceof MissingContextError) return failedOutcome(err.message, 'missing_context');
    if (err instanceof AppError) return failedOutcome(err.message, 'refused', { allowed: false, rule: err.rule ?? null, error_class: err.errorClass });
    throw err;
  }
}

/** A dry-run step: runs for real when it only reads, else reports what it would run; either way its plan is recorded. */
async function shadowStep(env: SchedulerEnv, input: DryRunInput, pin: (read: boolean) => StepPlan): Promise<StepRun> {
  const read = readsOnly(env, input);
  const run = read ? await runSync(env, input.step, input.def, input.args, input.signal) : await dryRunStep(env, input);
  if (typeof run === 'string') return run;
  return { ...run, note: read ? RAN_READ_ONLY : run.note, plan: pin(read) };
}

/**
 * The context a dry-run step sees: the task's context plus what earlier steps that ran for real
 * (read-only, in this dry run) saved. Nothing is written to the task's context during a dry run.
 */
function shadowContext(env: SchedulerEnv, step: StepRecord): TaskContext {
  const ctx = env.tasks.context(step.taskId);
  for (const s of env.steps.forTask(step.taskId)) {
    if (s.stepNumber < step.stepNumber && s.saveAs && s.note === RAN_READ_ONLY && s.result != null) ctx[s.saveAs] = s.result;
  }
  return ctx;
}

function savedKeys(env: SchedulerEnv, step: StepRecord): Set<string> {
  const keys = env.steps.forTask(step.taskId).filter((s) => s.stepNumber < step.stepNumber && s.saveAs);
  return new Set(keys.map((s) => s.saveAs!));
}

export type { TaskContext };

// Runs one claimed step: run_if, context references, then dry run, durable job, or a tool call.
import type { WireResult } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import { MissingContextError, resolveRefs } from './context-refs.js';
import { dryRunStep } from './dry-run.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import { runJobStep } from './job-step.js';
import { shouldRun } from './step-plan.js';
import type { StepOutcome, StepRecord, TaskContext } from './types.js';

/** `release`: the step could not start now (busy) and goes back to pending; `abandon`: the claim was lost. */
export type StepRun = StepOutcome | 'release' | 'abandon';

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
  const ctx = env.tasks.context(step.taskId);
  let args: Record<string, unknown>;
  try {
    args = resolveRefs(step.parameters, ctx, task.dryRun ? { placeholders: savedKeys(env, step) } : {}) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof MissingContextError) return failedOutcome(err.message, 'missing_context');
    throw err;
  }
  if ('context' in def.input.shape && args.context === undefined) args.context = ctx;
  if (task.dryRun) return dryRunStep(env, { step, def, args, signal });
  if (step.mode === 'job') return runJobStep(env, { step, owner, args, signal });
  return runSync(env, step, def, args, signal);
}

async function runSync(env: SchedulerEnv, step: StepRecord, def: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<StepRun> {
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  if (step.timeoutMs !== null) {
    if (def.name === 'run_command' && args.timeout_ms === undefined) args.timeout_ms = step.timeoutMs;
    else timer = setTimeout(() => ac.abort('timeout'), step.timeoutMs);
  }
  try {
    return outcomeOf(await env.invoke(def, args, ac.signal));
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Maps a tool's wire result to a step outcome: `success` true → success, anything else → failed. */
export function outcomeOf(res: WireResult): StepRun {
  const sc = res.structuredContent;
  if (res.isError && sc.error_class === 'busy') return 'release';
  if (sc.success === true) return { status: 'success', result: sc, error: null, note: null };
  return failedOutcome(typeof sc.error === 'string' ? sc.error : 'the tool reported failure', null, sc);
}

function savedKeys(env: SchedulerEnv, step: StepRecord): Set<string> {
  const keys = env.steps.forTask(step.taskId).filter((s) => s.stepNumber < step.stepNumber && s.saveAs);
  return new Set(keys.map((s) => s.saveAs!));
}

export type { TaskContext };

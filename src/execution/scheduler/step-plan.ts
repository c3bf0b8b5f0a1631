// Pure decisions of the runner: run_if, what a finished step means for its task, crash safety.
import type { ToolDef } from '../../control/tool.js';
import type { Profile } from '../../policy/types.js';
import type { TaskEvent } from './transitions.js';
import type { OnFailure, RunIf, StepMode, StepOutcome, StepRecord, StepSpec, StepStatus } from './types.js';

/** run_command's synchronous limit; a longer step runs as a durable job. */
export const SYNC_LIMIT_MS = 30_000;

/**
 * run_if against "the previous step": the nearest earlier step that was not skipped.
 * The first step (no previous) counts as after a success.
 */
export function shouldRun(runIf: RunIf, previous: StepStatus | undefined): boolean {
  if (runIf === 'always') return true;
  const failed = previous === 'failed';
  return runIf === 'failure' ? failed : !failed;
}

/** The note of a dry-run step that ran for real because it only reads (shadow mode). */
export const RAN_READ_ONLY = 'dry_run_read';

/** The note of a confirmed step refused because its values differ from its dry run's plan (plan-check.ts). */
export const PLAN_CHANGED = 'plan_changed';

/** What a finished step does to its task: a task event with its reason, or nothing (go on). */
export function taskEventAfter(o: { outcome: StepOutcome; onFailure: OnFailure; stepNumber: number; action: string; dryRun: boolean; hasOpen: boolean; dryRunRefusal?: string | null }): { event: TaskEvent; reason: string | null } | null {
  // A dry run checks every step; it ends failed when any check refused a step, else completed.
  // A step refused for a changed plan always pauses: the steps after it belong to a plan that no longer holds.
  const planChanged = o.outcome.note === PLAN_CHANGED;
  if (o.outcome.status === 'failed' && !o.dryRun && (o.onFailure !== 'continue' || planChanged)) {
    const reason = `step ${o.stepNumber} (${o.action}) failed: ${o.outcome.error ?? 'unknown error'}`;
    return { event: o.onFailure === 'abort' && !planChanged ? 'fail' : 'pause', reason };
  }
  if (o.hasOpen) return null;
  return o.dryRun && o.dryRunRefusal ? { event: 'fail', reason: o.dryRunRefusal } : { event: 'complete', reason: null };
}

/**
 * The first step a dry run refused (policy, schema, substitution, missing context), as a task
 * reason; null when every check passed. A read-only step that ran for real and failed is not a refusal.
 */
export function dryRunRefusal(steps: readonly StepRecord[]): string | null {
  const s = steps.find((x) => x.status === 'failed' && x.note !== RAN_READ_ONLY);
  if (!s) return null;
  const rule = (s.result as { rule?: unknown } | null)?.rule;
  return `dry run refused step ${s.stepNumber} (${s.action})${typeof rule === 'string' ? ` by rule ${rule}` : ''}: ${s.error ?? 'unknown error'}`;
}

/**
 * Whether a step may run again after its runner vanished mid-step. The tool decides
 * (rerunSafe, else readOnlyHint). run_command is treated as re-runnable only in the read-only
 * profile without `shell`: there every command is on the read-only allowlist with its argument
 * policies, and the sandbox has no writable path but a private /tmp, so it cannot have side effects.
 */
export function isRerunSafe(def: ToolDef, args: Record<string, unknown>, profile: Profile): boolean {
  if (def.name === 'run_command') return profile === 'read-only' && (args.shell === undefined || args.shell === false);
  return def.rerunSafe?.(args) ?? def.annotations.readOnlyHint;
}

/** The claim-time decision: dry runs and read-only sync steps re-run; job steps re-attach instead. */
export function rerunSafeAtClaim(tools: Map<string, ToolDef>, profile: Profile, step: { action: string; mode: StepMode; parameters: Record<string, unknown> }, dryRun: boolean): boolean {
  if (dryRun) return true;
  const def = tools.get(step.action);
  return step.mode === 'sync' && (def === undefined || isRerunSafe(def, step.parameters, profile));
}

/** The mode a step runs in: explicit, else `job` when its timeout exceeds the sync limit. */
export function effectiveMode(s: StepSpec): StepMode {
  if (s.mode) return s.mode;
  const timeout = s.timeout_ms ?? (typeof s.parameters.timeout_ms === 'number' ? s.parameters.timeout_ms : 0);
  return s.action === 'run_command' && timeout > SYNC_LIMIT_MS ? 'job' : 'sync';
}

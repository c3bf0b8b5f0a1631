// Shadow mode (SPEC §3.4): in a dry run, a step that only reads runs for real, so later steps see
// real context; any other step is checked against its schema and the policy and reports `would_run`
// with the argvs it will receive (resolved where known, `{{context.…}}` where not yet known).
import { parseArgs } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import { decide } from '../../policy/decide.js';
import { AppError } from '../../shared/errors.js';
import type { ResolvedCommand } from './command-template.js';
import { hasRefs } from './context-refs.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import { COMMAND_TOOLS } from './step-args.js';
export { RAN_READ_ONLY } from './step-plan.js';
import type { StepOutcome, StepRecord } from './types.js';

const PATH_KEYS = ['path', 'paths', 'cwd', 'root'];


export interface DryRunInput {
  step: StepRecord;
  def: ToolDef;
  args: Record<string, unknown>;
  command?: ResolvedCommand;
  signal: AbortSignal;
}

/**
 * Whether a dry-run step only reads, and so runs for real: a read-only adapter that reaches no
 * network, or a sync run_command (no shell, no network) that the read-only profile's policy allows.
 */
export function readsOnly(env: SchedulerEnv, { step, def, args, command }: DryRunInput): boolean {
  if (step.mode !== 'sync') return false;
  if (!COMMAND_TOOLS.has(def.name)) {
    // A placeholder (a value not known in this dry run) left in a parameter: report, do not run.
    const { context: _ctx, ...params } = args;
    return def.annotations.readOnlyHint && !def.annotations.openWorldHint && !hasRefs(params);
  }
  if (def.name !== 'run_command' || !env.policyContext || !command || command.unresolved.length > 0) return false;
  if (args.shell === true || args.network === true) return false;
  const ctx = env.policyContext();
  const cwd = typeof args.cwd === 'string' ? args.cwd : ctx.workspaceRoots[0];
  if (!cwd) return false;
  const req = { command: args.command as string | string[], cwd, env: args.env as Record<string, string> | undefined };
  return decide(req, { ...ctx, profile: 'read-only', writeRoots: [] }).allow;
}

/** The step's `would_run` report, or a failure naming the schema field or the policy rule. */
export async function dryRunStep(env: SchedulerEnv, input: DryRunInput): Promise<StepOutcome> {
  const { def, args } = input;
  let parsed: Record<string, unknown>;
  try {
    parsed = parseArgs(def, args);
  } catch (err) {
    return failedOutcome(err instanceof AppError ? err.message : String(err), 'dry_run', { would_run: null, allowed: false, rule: (err as AppError).rule ?? null });
  }
  if (!COMMAND_TOOLS.has(def.name)) {
    const reads = Object.fromEntries(PATH_KEYS.filter((k) => parsed[k] !== undefined).map((k) => [k, parsed[k]]));
    const would_run = { action: def.name, parameters: parsed, read_only: def.annotations.readOnlyHint, reads };
    return { status: 'success', result: { would_run }, error: null, note: 'dry_run' };
  }
  return checkCommand(env, { ...input, args: parsed });
}

async function checkCommand(env: SchedulerEnv, { step, def, args, command: plan, signal }: DryRunInput): Promise<StepOutcome> {
  const check = env.tools().get('policy_check');
  if (!check) return failedOutcome('dry run needs the policy_check tool, which this server does not expose', 'dry_run');
  const { command, cwd, shell, network } = args;
  const res = await env.invoke(check, JSON.parse(JSON.stringify({ command, cwd, shell, network })), signal);
  const sc = res.structuredContent;
  const via = step.mode === 'job' ? 'job_start' : def.name;
  if (res.isError || sc.allowed !== true) {
    const error = String(sc.message ?? sc.error ?? 'refused by policy');
    return failedOutcome(error, 'dry_run', { would_run: null, allowed: false, rule: sc.rule ?? null, via, ...planView(plan) });
  }
  const would_run = { action: def.name, via, command, ...planView(plan), cwd: cwd ?? null, rule: sc.rule, message: sc.message, profile: sc.profile ?? env.profile };
  return { status: 'success', result: { would_run }, error: null, note: 'dry_run' };
}

function planView(plan: ResolvedCommand | undefined): Record<string, unknown> {
  if (!plan) return {};
  const view: Record<string, unknown> = { argv: plan.stages };
  if (plan.substitutions.length > 0) view.substitutions = plan.substitutions;
  if (plan.unresolved.length > 0) {
    view.unresolved = plan.unresolved;
    view.unresolved_note = `${plan.unresolved.join(', ')} ${plan.unresolved.length > 1 ? 'are' : 'is'} saved by a step that does not run in a dry run; the policy saw the placeholder, and the step is checked again with the real value when it runs`;
  }
  return view;
}

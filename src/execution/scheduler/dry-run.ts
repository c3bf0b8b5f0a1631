// Shadow mode: checks a step against its schema and the command policy, runs nothing.
import { parseArgs } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import { AppError } from '../../shared/errors.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import type { StepOutcome, StepRecord } from './types.js';

const COMMAND_TOOLS = new Set(['run_command', 'job_start']);
const PATH_KEYS = ['path', 'paths', 'cwd', 'root'];

export interface DryRunInput {
  step: StepRecord;
  def: ToolDef;
  args: Record<string, unknown>;
  signal: AbortSignal;
}

/** The step's `would_run` report, or a failure naming the schema field or the policy rule. */
export async function dryRunStep(env: SchedulerEnv, { step, def, args, signal }: DryRunInput): Promise<StepOutcome> {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseArgs(def, args);
  } catch (err) {
    return failedOutcome(err instanceof AppError ? err.message : String(err), 'dry_run');
  }
  if (!COMMAND_TOOLS.has(def.name)) {
    const reads = Object.fromEntries(PATH_KEYS.filter((k) => parsed[k] !== undefined).map((k) => [k, parsed[k]]));
    const would_run = { action: def.name, parameters: parsed, read_only: def.annotations.readOnlyHint, reads };
    return { status: 'success', result: { would_run }, error: null, note: 'dry_run' };
  }
  return checkCommand(env, { step, def, args: parsed, signal });
}

async function checkCommand(env: SchedulerEnv, { step, def, args, signal }: DryRunInput): Promise<StepOutcome> {
  const check = env.tools().get('policy_check');
  if (!check) return failedOutcome('dry run needs the policy_check tool, which this server does not expose', 'dry_run');
  const { command, cwd, shell, network } = args;
  const res = await env.invoke(check, JSON.parse(JSON.stringify({ command, cwd, shell, network })), signal);
  const sc = res.structuredContent;
  const via = step.mode === 'job' ? 'job_start' : def.name;
  if (res.isError || sc.allowed !== true) {
    const error = String(sc.message ?? sc.error ?? 'refused by policy');
    return failedOutcome(error, 'dry_run', { would_run: null, allowed: false, rule: sc.rule ?? null, via });
  }
  const would_run = { action: def.name, via, command, cwd: cwd ?? null, rule: sc.rule, message: sc.message, profile: sc.profile ?? env.profile };
  return { status: 'success', result: { would_run }, error: null, note: 'dry_run' };
}

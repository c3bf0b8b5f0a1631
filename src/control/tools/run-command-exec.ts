// Glue from an allowed Decision to a bounded run: environment, sandbox options, rendering (the
// envelope redacts the output, as it does every tool result).
import { filterServerEnv } from '../../policy/env-rules.js';
import type { Decision, Stage } from '../../policy/types.js';
import { PolicyDenial, type Deny } from '../../policy/denial.js';
import { gitCeilings } from '../../data/git/run-git.js';
import { checkRepository } from '../../data/git/repo-check/check-repository.js';
import { gitInvocation } from '../../policy/git-config/git-stage-target.js';
import { promisedLayers, SYSTEM_PATH, type HostCapabilities } from '../../sandbox/capabilities.js';
import { AppError } from '../../shared/errors.js';
import { cgroupLimitsFromPolicy, sandboxFromPolicy } from '../../sandbox/policy-sandbox.js';
import { serverPolicy } from '../server-policy.js';
import type { SandboxOptions } from '../../sandbox/plan.js';
import { runCommand, type RunResult } from '../../execution/run.js';
import type { AppDeps } from '../deps.js';
import type { ToolOutcome } from '../tool.js';

export { runOutputShape } from './run-output-schema.js';

export interface ExecOptions {
  cwd: string;
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  onSpawn?: (pids: number[]) => void;
}

/**
 * The child environment: the server env without any variable output would redact (`secretNames`
 * are the person's `[secrets] env`), a fixed PATH, then the caller's (already policy-checked) variables.
 */
export function childEnv(secretNames: readonly string[], callerEnv: Record<string, string> | undefined): Record<string, string> {
  return { ...filterServerEnv(process.env, secretNames), PATH: SYSTEM_PATH.join(':'), ...(callerEnv ?? {}) };
}

/** The child environment plus GIT_CEILING_DIRECTORIES: git never finds a repository above the roots. Every command and job starts with it. */
export function commandEnv(deps: AppDeps, callerEnv: Record<string, string> | undefined): Record<string, string> {
  return { ...childEnv(deps.config.secrets.env, callerEnv), GIT_CEILING_DIRECTORIES: gitCeilings(deps.runtime.readRoots).join(':') };
}

/**
 * Sandbox options for the current runtime and one request: derived from the server's policy record,
 * the same derivation a job's supervisor uses (policy-sandbox.ts), so both confine alike.
 */
export function sandboxOptions(deps: AppDeps, cwd: string, network: boolean): SandboxOptions {
  return sandboxFromPolicy(serverPolicy(deps).record, cwd, network);
}

/**
 * sandbox.require: refuses (unavailable) when a layer the profile promises is missing on this host
 * — bubblewrap and seccomp for the confined profiles, cgroup limits for every profile — and returns
 * the capabilities with those layers marked required, so the spawn itself (sync run or job
 * supervisor) refuses if one falls away later.
 */
export function requireConfinement(deps: AppDeps): HostCapabilities {
  const caps = deps.capabilities();
  if (!deps.config.sandbox.require) return caps;
  const promised = promisedLayers(deps.runtime.profile);
  const why: Record<string, string | undefined> = {
    bubblewrap: deps.config.sandbox.bubblewrap === 'off' ? 'sandbox.bubblewrap is off' : caps.bubblewrap.reason,
    seccomp: caps.seccomp?.reason,
    'cgroup-limits': caps.cgroup.reason ?? 'no cgroup limit controller is writable',
  };
  const usable = (l: string) => caps.layers.includes(l) && !(l === 'bubblewrap' && deps.config.sandbox.bubblewrap === 'off');
  const missing = promised.filter((l) => !usable(l));
  if (missing.length > 0) {
    throw new AppError('unavailable', `sandbox.require is set but the ${deps.runtime.profile} profile's ${missing.map((l) => `${l} layer (${why[l] ?? 'unavailable'})`).join(', ')} cannot confine commands here`, {
      hint: "run 'workbench doctor'; install bubblewrap, enable user namespaces and cgroup delegation, or set sandbox.require = false",
    });
  }
  return { ...caps, require: promised };
}

/** Runs an allowed decision and returns the raw run result (redacted where it leaves: envelope.ts). */
export async function executeDecision(deps: AppDeps, decision: Decision & { allow: true }, opts: ExecOptions): Promise<RunResult> {
  const caps = requireConfinement(deps);
  await checkGitStages(deps, decision.stages, opts.cwd);
  return runCommand({
    stages: decision.stages,
    cwd: opts.cwd,
    env: commandEnv(deps, opts.env),
    stdin: opts.stdin,
    timeoutMs: opts.timeoutMs,
    maxOutputBytes: opts.maxOutputBytes,
    signal: opts.signal,
    sandbox: sandboxOptions(deps, opts.cwd, decision.network),
    caps,
    cgroupLimits: cgroupLimitsFromPolicy(serverPolicy(deps).record),
    onSpawn: opts.onSpawn,
  });
}

/** Structured result plus the text form: status line, stdout, stderr, truncation notes. */
export function renderRun(r: RunResult): ToolOutcome {
  const status = r.timed_out
    ? `timed out after ${r.duration_ms} ms`
    : r.cancelled
      ? 'cancelled'
      : r.signal
        ? `killed by ${r.signal}`
        : `exited with code ${r.exit_code}`;
  const parts = [`${status} (${r.duration_ms} ms)${r.limit_hit ? `; ${r.limit_hit} limit hit` : ''}`];
  if (r.stdout) parts.push(`--- stdout ---\n${r.stdout}`);
  if (r.stderr) parts.push(`--- stderr ---\n${r.stderr}`);
  if (r.stdout_truncated) parts.push(`[stdout truncated: ${r.stdout_bytes} bytes in total]`);
  if (r.stderr_truncated) parts.push(`[stderr truncated: ${r.stderr_bytes} bytes in total]`);
  const { cancelled, ...data } = r;
  const ok = r.exit_code === 0 && !r.timed_out && !cancelled;
  const failure = ok
    ? undefined
    : r.timed_out
      ? { error: `timed out after ${r.duration_ms} ms; output so far is included`, errorClass: 'timeout' as const }
      : cancelled
        ? { error: 'cancelled by the client; the process tree was killed', errorClass: 'cancelled' as const }
        : { error: r.signal ? `killed by signal ${r.signal}` : `exited with code ${r.exit_code}`, errorClass: 'exec_failed' as const };
  return { data, failure, truncated: r.stdout_truncated || r.stderr_truncated, text: parts.join('\n') };
}

/**
 * Every stage that runs git (in any profile, also behind a wrapper such as `timeout`) is checked
 * against the repository it would operate on (its cwd with `-C`, or `--git-dir`) before anything
 * spawns: a repository whose own config could run a program or reach outside the roots is refused
 * with git.unsafe_config. The single gate for run_command, job_start (and task steps through
 * them) and UFO's execute_command. Stages are never rewritten with `-c` built from repository text.
 */
export async function checkGitStages(deps: AppDeps, stages: readonly Stage[], cwd: string): Promise<void> {
  const checked = new Set<string>();
  for (const s of stages) {
    const target = gitInvocation(s.argv, cwd);
    if (target === null || checked.has(JSON.stringify(target))) continue;
    checked.add(JSON.stringify(target));
    await checkRepository(target, { roots: deps.runtime.readRoots, homeDir: deps.runtime.homeDir, stateDir: deps.runtime.stateDir });
  }
}

/** checkGitStages as a Decision for policy_check: the denial, or null when every git stage passes. */
export async function gitStagesDenial(deps: AppDeps, stages: readonly Stage[], cwd: string): Promise<Deny | null> {
  try {
    await checkGitStages(deps, stages, cwd);
    return null;
  } catch (err) {
    if (err instanceof PolicyDenial) return err.toDecision();
    throw err;
  }
}

// Runs one command for the UFO tools through Workbench's policy and sandbox, shaped like UFO's results.
import type { RunResult } from '../../execution/run.js';
import type { AppDeps } from '../deps.js';
import type { ToolOutcome } from '../tool.js';
import { decideOrThrow } from '../tools/decide-or-throw.js';
import { executeDecision, renderRun } from '../tools/run-command-exec.js';

/** UFO accepts 1–120 s; up to 30 s (the run_command limit) runs synchronously, longer as an awaited job. */
export const UFO_TIMEOUT_MIN_S = 1;
export const UFO_TIMEOUT_MAX_S = 120;
export const SYNC_LIMIT_S = 30;
const MAX_OUTPUT = 256 * 1024;

export interface UfoRunRequest {
  command: string | string[];
  cwd?: string;
  timeoutS: number;
  signal?: AbortSignal;
}

/** Decides (refusing what the policy refuses) and runs the command; returns the raw result. */
export async function runForUfo(deps: AppDeps, req: UfoRunRequest): Promise<RunResult> {
  const decision = decideOrThrow(deps, { command: req.command, cwd: req.cwd });
  return executeDecision(deps, decision, {
    cwd: req.cwd ?? deps.runtime.workspaceRoots[0]!,
    timeoutMs: req.timeoutS * 1000,
    maxOutputBytes: MAX_OUTPUT,
    signal: req.signal,
  });
}

/** Clamps the requested timeout like UFO: whole seconds, 1–120, default 30. */
export function clampTimeout(requested: number | undefined): number {
  return Math.min(Math.max(Math.round(requested ?? SYNC_LIMIT_S), UFO_TIMEOUT_MIN_S), UFO_TIMEOUT_MAX_S);
}

/** UFO's `{success, exit_code, stdout, stderr}` (or `error`) plus Workbench's envelope fields. */
export function ufoOutcome(r: RunResult, timeoutS: number): ToolOutcome {
  const rendered = renderRun(r);
  const failure = r.timed_out ? { error: `Timeout after ${timeoutS}s.`, errorClass: 'timeout' as const } : rendered.failure;
  const data: Record<string, unknown> = {
    exit_code: r.exit_code,
    stdout: r.stdout,
    stderr: r.stderr,
    timed_out: r.timed_out,
    truncated: r.stdout_truncated || r.stderr_truncated,
    timeout_s: timeoutS,
  };
  return { data, failure, truncated: rendered.truncated, text: rendered.text };
}

// The bounded synchronous run: spawns a pipeline of confined stages, captures output within
// budgets, enforces the timeout, and makes sure no process of the tree outlives the call.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { AppError } from '../shared/errors.js';
import type { Stage } from '../policy/types.js';
import type { HostCapabilities } from '../sandbox/capabilities.js';
import type { CgroupLimits } from '../sandbox/cgroup.js';
import { planSpawn, type SandboxOptions } from '../sandbox/plan.js';
import { OutputCapture } from './output-capture.js';
import { killTree, reapCgroup, releaseCgroup } from './kill-tree.js';
import { createRunCgroup, pidsOf, superviseUntilExit } from './supervise.js';

export interface RunSpec {
  stages: Stage[];
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  sandbox: SandboxOptions;
  caps: HostCapabilities;
  cgroupLimits?: CgroupLimits;
  /** Called with the pids once spawned (tests record them to prove the tree died). */
  onSpawn?: (pids: number[]) => void;
}

export interface RunResult {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  cancelled: boolean;
  stdout: string;
  stderr: string;
  stdout_bytes: number;
  stderr_bytes: number;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  duration_ms: number;
  sandbox: string[];
  /** Set when a resource limit ended the command (memory, pids). */
  limit_hit?: string;
}

/** Runs the stages connected by pipes and resolves when every stage has exited and the tree is gone. */
export async function runCommand(spec: RunSpec): Promise<RunResult> {
  assertDirectory(spec.cwd);
  const started = performance.now();
  const cgroup = createRunCgroup(spec.caps, spec.cgroupLimits);
  const out = new OutputCapture(spec.maxOutputBytes);
  const err = new OutputCapture(spec.maxOutputBytes);
  const children: ChildProcess[] = [];
  let layers: string[] = [];
  try {
    for (const [i, stage] of spec.stages.entries()) {
      const plan = planSpawn(stage, { ...spec.sandbox, cwd: spec.cwd }, spec.caps, cgroup);
      layers = plan.layers;
      const stdinFrom = i === 0 ? (spec.stdin === undefined ? 'ignore' : 'pipe') : children[i - 1]!.stdout!;
      const child = spawn(plan.file, plan.args, {
        cwd: spec.cwd,
        env: spec.env,
        stdio: [stdinFrom, 'pipe', 'pipe'],
        detached: true,
      });
      if (i > 0) children[i - 1]!.stdout!.destroy();
      child.stderr!.on('data', (c: Buffer) => err.push(c));
      children.push(child);
    }
  } catch (e) {
    killTree(pidsOf(children), cgroup);
    // A refusal by the sandbox layer (a required layer missing) keeps its class: it is not an exec failure.
    throw e instanceof AppError ? e : new AppError('exec_failed', `could not start the command: ${(e as Error).message}`, { cause: e });
  }
  const last = children[children.length - 1]!;
  last.stdout!.on('data', (c: Buffer) => out.push(c));
  feedStdin(children[0]!, spec.stdin);
  spec.onSpawn?.(pidsOf(children));
  const ended = await superviseUntilExit(children, spec, cgroup);
  const limitHit = cgroup?.oomKilled() ? 'memory' : cgroup?.pidsLimitHit() ? 'pids' : undefined;
  // No process outlives the call: wait (bounded) until the killed tree has really left the cgroup.
  // The usual case — already empty — costs one rmdir; a stuck process is left to the background.
  if (cgroup && !(await reapCgroup(cgroup, { timeoutMs: 2000 }))) releaseCgroup(cgroup);
  return {
    exit_code: ended.code,
    signal: ended.signal,
    timed_out: ended.reason === 'timeout',
    cancelled: ended.reason === 'cancelled',
    stdout: out.text(),
    stderr: err.text(),
    stdout_bytes: out.total,
    stderr_bytes: err.total,
    stdout_truncated: out.truncated,
    stderr_truncated: err.truncated,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
    sandbox: layers,
    ...(limitHit ? { limit_hit: limitHit } : {}),
  };
}

function feedStdin(first: ChildProcess, stdin: string | undefined): void {
  if (stdin === undefined || !first.stdin) return;
  first.stdin.on('error', () => {
    /* the command exited without reading all of its input: not an error of ours */
  });
  first.stdin.end(stdin);
}

function assertDirectory(cwd: string): void {
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new AppError('not_found', `cwd ${cwd} does not exist or is not a directory; pass an existing directory inside the workspace`);
}

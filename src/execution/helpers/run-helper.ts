// The launch path of helper programs (the adapters' git, rg, pip, npm, dpkg-query, systemctl, ps):
// the same planSpawn → cgroup → deadline → tree kill as commands, in the read-only sandbox view.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { planSpawn } from '../../sandbox/plan.js';
import { AppError } from '../../shared/errors.js';
import { reapCgroup, releaseCgroup } from '../kill-tree.js';
import { createRunCgroup, superviseUntilExit } from '../supervise.js';
import { fixedEnv } from './helper-env.js';
import type { CgroupHandle } from '../../sandbox/cgroup.js';
import { helperLimits, helperView, type HelperHost, type HelperPlace, type HelperView } from './helper-view.js';

export type { HelperHost } from './helper-view.js';

export interface HelperSpec extends HelperPlace {
  /** Absolute path of a program found on the fixed system PATH (never a caller's or a repository's). */
  program: string;
  args: string[];
  /**
   * A verified descriptor of `cwd`, used only where no sandbox view exists: there the process
   * starts in /proc/self/fd/3 (the descriptor, handed over as fd 3), so a directory swapped for a
   * symlink between the check and the spawn cannot move it. Inside the view the race buys
   * nothing: whatever a swapped-in symlink points to is either visible to commands anyway or not
   * in the view at all (the state directory and home secrets are masked, the rest of home is an
   * empty tmpfs), so bubblewrap simply changes into the checked path.
   */
  cwdFd?: number;
  /** The program's own switches (GIT_*, npm_config_*); PATH, HOME and the locale are fixed. */
  env?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Receives stdout as it comes; `stop()` ends the run (the tree is killed) without an error. */
  onStdout(chunk: Buffer, stop: () => void): void;
}

export interface HelperResult {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The caller's signal aborted the run. */
  cancelled: boolean;
  /** onStdout called stop(). */
  stopped: boolean;
  /** The first 8 KiB of stderr. */
  stderr: string;
  /** The confinement layers, as for commands ('bubblewrap', 'seccomp', 'cgroup-kill', …). */
  layers: string[];
}

const STDERR_MAX = 8192;

/** Runs one helper confined and resolves once it has exited and its whole tree is gone. */
export async function runHelper(host: HelperHost, spec: HelperSpec): Promise<HelperResult> {
  const view = helperView(host, spec.program, spec);
  // Confined, the helper's tree lives in bubblewrap's pid namespace, which dies with it.
  const cgroup = createRunCgroup(host.capabilities(), helperLimits(host), { pidNamespace: view.confined });
  // One signal ends the run: the caller's abort, or stop() from onStdout.
  const stopper = new AbortController();
  const abort = () => stopper.abort();
  if (spec.signal?.aborted) abort();
  spec.signal?.addEventListener('abort', abort, { once: true });
  let stopped = false;
  let stderr = '';
  let spawnError: Error | undefined;
  try {
    const { child, layers } = spawnHelper(host, spec, view, cgroup);
    child.once('error', (e) => (spawnError = e));
    child.stdout!.on('data', (b: Buffer) => stopped || spec.onStdout(b, () => ((stopped = true), abort())));
    child.stderr!.on('data', (b: Buffer) => void (stderr.length < STDERR_MAX && (stderr += b.toString('utf8'))));
    const ended = await superviseUntilExit([child], { timeoutMs: spec.timeoutMs, signal: stopper.signal }, cgroup);
    if (spawnError) throw spawnError;
    const cancelled = ended.reason === 'cancelled' && !stopped;
    return { code: ended.code, signal: ended.signal, timedOut: ended.reason === 'timeout', cancelled, stopped, stderr: stderr.slice(0, STDERR_MAX), layers };
  } catch (e) {
    throw new AppError('exec_failed', `could not start ${basename(spec.program)}: ${(e as Error).message}`, { cause: e });
  } finally {
    spec.signal?.removeEventListener('abort', abort);
    // No process outlives the call: wait (bounded) until the killed tree has left the cgroup.
    if (cgroup && !(await reapCgroup(cgroup, { timeoutMs: 2000 }))) releaseCgroup(cgroup);
  }
}

/** planSpawn (the wrapper that joins the cgroup, rlimits, seccomp, bubblewrap) and the spawn itself. */
function spawnHelper(host: HelperHost, spec: HelperSpec, view: HelperView, cgroup?: CgroupHandle): { child: ChildProcess; layers: string[] } {
  const name = basename(spec.program);
  const plan = planSpawn({ name, executable: spec.program, argv: [name, ...spec.args] }, view.sandbox, host.capabilities(), cgroup);
  // /proc/self/fd names the descriptor only on Linux with /proc; elsewhere the checked path is used.
  const pinned = !view.confined && spec.cwdFd !== undefined && process.platform === 'linux' && existsSync('/proc/self/fd');
  // In the view, the host-side processes (the wrapper, bwrap) start in `/` and bwrap changes into
  // the checked directory inside the view; on the host the helper starts in the checked directory
  // (through the pinned descriptor where possible) or `/`.
  const cwd = view.confined ? '/' : pinned ? '/proc/self/fd/3' : view.sandbox.cwd;
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', pinned ? spec.cwdFd! : 'ignore'];
  const child = spawn(plan.file, plan.args, { cwd, env: { ...spec.env, ...fixedEnv() }, stdio, detached: true });
  return { child, layers: plan.layers };
}

// Turns an allowed stage into the argv actually spawned: the confinement layers wrap the command.
import type { Stage } from '../policy/types.js';
import { AppError } from '../shared/errors.js';
import { bwrapArgs, SECCOMP_FD } from './bwrap.js';
import type { HostCapabilities } from './capabilities.js';
import type { CgroupHandle } from './cgroup.js';
import { ensurePrivateFile } from './private-files.js';
import { seccompProgram } from './seccomp.js';

export interface SandboxLimits {
  fileSizeBytes: number;
  /** CPU seconds for rlimit (0 = none). */
  cpuSeconds: number;
}

export interface SandboxOptions {
  profile: 'read-only' | 'workspace-write' | 'full';
  readRoots: string[];
  writeRoots: string[];
  workspaceRoots: string[];
  stateDir: string;
  homeDir: string;
  cwd: string;
  network: boolean;
  limits: SandboxLimits;
  /** Whether bubblewrap may be used (config sandbox.bubblewrap != off). */
  useBubblewrap: boolean;
  /** The person's configuration (directories and files): read-only in the sandbox even under a write root. */
  configPaths?: string[];
  /**
   * Host paths bound read-only beyond the roots and system dirs (a helper's database, such as
   * /var/lib/dpkg); secrets and the state directory beneath them are masked like under a root.
   */
  extraReadOnly?: string[];
  /** false: no /sys in the view (helper programs); default true. */
  sys?: boolean;
}

export interface SpawnPlan {
  file: string;
  args: string[];
  /**
   * Set when bubblewrap reads its first arguments (`--clearenv` and the command's `--setenv`s) from
   * this fd (`--args FD`): the caller writes envArgs() there and spawns the host-side wrapper with a
   * fixed minimal environment, so the command's environment never reaches a host-side process nor argv.
   */
  envFd?: number;
  /** Layers confining this spawn, e.g. ['bubblewrap', 'seccomp', 'cgroup-limits', 'cgroup-kill', 'rlimit', 'process-group']. */
  layers: string[];
}

const SH = '/bin/sh';

/**
 * The outermost layer is a tiny `sh` that joins the cgroup (before anything can fork, so no
 * descendant escapes accounting or the kill), sets rlimits with the `ulimit` builtin (dash counts
 * `-f` in 512-byte blocks), opens the seccomp program for bwrap, then execs bwrap (or the command).
 * It fails closed: if it cannot join or open, the command does not run (exit 125).
 */
export function planSpawn(stage: Stage, opts: SandboxOptions, caps: HostCapabilities, cgroup?: CgroupHandle, envOpts: { envFd?: number } = {}): SpawnPlan {
  const inner = wrapConfinement([stage.executable, ...stage.argv.slice(1)], opts, caps);
  const envFd = inner.layers.includes('bubblewrap') ? envOpts.envFd : undefined;
  if (envFd !== undefined) inner.argv.splice(1, 0, '--args', String(envFd));
  const layers = [...inner.layers];
  const script: string[] = [];
  if (cgroup) {
    for (const f of cgroup.procsFiles) script.push(`echo $$ > ${f} || exit 125`);
    if (caps.cgroup.limitControllers.length > 0) layers.push('cgroup-limits');
    layers.push('cgroup-kill');
  }
  if (opts.profile !== 'full' || opts.limits.fileSizeBytes > 0) {
    script.push('ulimit -c 0');
    if (opts.limits.fileSizeBytes > 0) script.push(`ulimit -f ${Math.ceil(opts.limits.fileSizeBytes / 512)}`);
    if (opts.limits.cpuSeconds > 0) script.push(`ulimit -t ${opts.limits.cpuSeconds}`);
    layers.push('rlimit');
  }
  layers.push('process-group');
  assertRequiredLayers(layers, caps.require);
  // bwrap reads the program from the fd and closes it before the command starts.
  if (inner.seccompFile) script.push(`exec ${SECCOMP_FD}< ${inner.seccompFile} || exit 125`);
  // Nothing to set up (profile `full` without limits or cgroup): spawn the command itself, saving an exec.
  if (script.length === 0) return { file: inner.argv[0]!, args: inner.argv.slice(1), layers, envFd };
  script.push('exec "$@"');
  return { file: SH, args: ['-c', script.join('\n'), 'workbench-sandbox', ...inner.argv], layers, envFd };
}

/** What a plan's envFd carries: NUL-separated bwrap arguments that replace the environment inside the sandbox. */
export function envArgs(env: Record<string, string>): Buffer {
  const parts = ['--clearenv', ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v])];
  return Buffer.from(`${parts.join('\0')}\0`);
}

const SAFE_PATH = /^[\w./-]+$/;

/** sandbox.require: a run that would lack a promised layer is refused, naming it (fail closed). */
function assertRequiredLayers(layers: string[], required: string[] | undefined): void {
  const missing = (required ?? []).filter((l) => !layers.includes(l));
  if (missing.length === 0) return;
  throw new AppError('unavailable', `sandbox.require is set but this run would lack: ${missing.join(', ')}; it was not started`, {
    hint: "run 'workbench doctor' to see which layer fell away and why, or set sandbox.require = false",
  });
}

/** bubblewrap (plus seccomp) around the command, unless the profile is `full` or bwrap is off or broken. */
function wrapConfinement(argv: string[], opts: SandboxOptions, caps: HostCapabilities): { argv: string[]; layers: string[]; seccompFile?: string } {
  if (opts.profile === 'full' || !opts.useBubblewrap || !caps.bubblewrap.works || !caps.bubblewrap.path) return { argv, layers: [] };
  // Both files are re-checked per spawn in the verified private directory (it throws when that is not ours).
  const program = caps.seccomp?.works ? seccompProgram() : undefined;
  const file = program ? ensurePrivateFile(opts.stateDir, `seccomp-${process.arch}.bpf`, program, 0o400) : undefined;
  const seccompFile = file && SAFE_PATH.test(file) ? file : undefined;
  if (program && !seccompFile) throw new AppError('unavailable', `the seccomp program's path ${file} holds characters the wrapper cannot quote; set WORKBENCH_HOME to a plain path`);
  const maskFile = ensurePrivateFile(opts.stateDir, 'masked', Buffer.alloc(0), 0);
  const args = bwrapArgs(opts, caps, { seccomp: seccompFile !== undefined, maskFile });
  return { argv: [caps.bubblewrap.path, ...args, ...argv], layers: seccompFile ? ['bubblewrap', 'seccomp'] : ['bubblewrap'], seccompFile };
}

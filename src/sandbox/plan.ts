// Turns an allowed stage into the argv actually spawned: the confinement layers wrap the command.
import type { Stage } from '../policy/types.js';
import type { HostCapabilities } from './capabilities.js';
import type { CgroupHandle } from './cgroup.js';

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
}

export interface SpawnPlan {
  file: string;
  args: string[];
  /** Layers confining this spawn, e.g. ['bubblewrap', 'cgroup', 'rlimit', 'process-group']. */
  layers: string[];
}

const SH = '/bin/sh';

/**
 * The outermost layer is a tiny `sh` that joins the cgroup (before anything can fork, so no
 * descendant escapes accounting or the kill), sets rlimits with the `ulimit` builtin, then
 * execs the rest. It fails closed: if it cannot join, the command does not run (exit 125).
 */
export function planSpawn(stage: Stage, opts: SandboxOptions, caps: HostCapabilities, cgroup?: CgroupHandle): SpawnPlan {
  const layers: string[] = [];
  let argv = [stage.executable, ...stage.argv.slice(1)];
  const inner = wrapConfinement(argv, opts, caps);
  argv = inner.argv;
  layers.push(...inner.layers);
  const script: string[] = [];
  if (cgroup) {
    for (const f of cgroup.procsFiles) script.push(`echo $$ > ${f} || exit 125`);
    layers.push('cgroup');
  }
  if (opts.profile !== 'full' || opts.limits.fileSizeBytes > 0) {
    script.push('ulimit -c 0');
    if (opts.limits.fileSizeBytes > 0) script.push(`ulimit -f ${Math.ceil(opts.limits.fileSizeBytes / 512)}`);
    if (opts.limits.cpuSeconds > 0) script.push(`ulimit -t ${opts.limits.cpuSeconds}`);
    layers.push('rlimit');
  }
  layers.push('process-group');
  script.push('exec "$@"');
  return { file: SH, args: ['-c', script.join('\n'), 'workbench-sandbox', ...argv], layers };
}

/** Hook for OS confinement (bubblewrap). Without it the argv runs as is. */
function wrapConfinement(argv: string[], _opts: SandboxOptions, _caps: HostCapabilities): { argv: string[]; layers: string[] } {
  return { argv, layers: [] };
}

// Detects which confinement layers and tools this host offers (for doctor, system_info and the runner).
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeBubblewrap, probeSeccomp, type BubblewrapCaps, type SeccompCaps } from './bwrap-probe.js';
import { findCgroupSetup, type CgroupSetup } from './cgroup.js';
import { sweepStaleCgroups } from './cgroup-sweep.js';

export const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export interface HostCapabilities {
  platform: NodeJS.Platform;
  bubblewrap: BubblewrapCaps;
  /** The syscall filter bubblewrap installs (only with bubblewrap). */
  seccomp?: SeccompCaps;
  /**
   * Layers a run must have (set by sandbox.require for the profile): planSpawn refuses a run that
   * would lack one, so a layer that falls away between detection and spawn cannot go unnoticed.
   */
  require?: string[];
  userNamespaces: boolean;
  cgroup: CgroupSetup;
  prlimit: boolean;
  ripgrep?: string;
  git?: string;
  /**
   * The layers that will confine a command, from: 'bubblewrap', 'seccomp', 'cgroup-limits'
   * (memory/pids/cpu enforced), 'cgroup-kill' (the whole tree, setsid'd daemons included),
   * 'rlimit' (ulimit in the wrapper), 'process-group'. Only what was verified on this host.
   */
  layers: string[];
}

/** The layers a profile promises (SPEC §4): what sandbox.require insists on and doctor reports as fallen away. */
export function promisedLayers(profile: 'read-only' | 'workspace-write' | 'full'): string[] {
  return profile === 'full' ? ['cgroup-limits'] : ['bubblewrap', 'seccomp', 'cgroup-limits'];
}

/** Finds an executable on the fixed system PATH (never the caller's PATH). */
export function whichSystem(name: string): string | undefined {
  for (const dir of SYSTEM_PATH) {
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}

/** Runs the detection (the seccomp program goes to the private directory of `stateDir`); costs a few (asynchronous) spawns, so callers cache the result. */
export async function detectCapabilities(stateDir?: string): Promise<HostCapabilities> {
  const linux = process.platform === 'linux';
  const bubblewrap = await probeBubblewrap(linux ? whichSystem('bwrap') : undefined);
  const seccomp = await probeSeccomp(bubblewrap, stateDir);
  const cgroup = findCgroupSetup();
  if (cgroup.usable) sweepStaleCgroups(cgroup);
  const layers: string[] = [];
  if (bubblewrap.works) layers.push('bubblewrap');
  if (seccomp.works) layers.push('seccomp');
  if (cgroup.limitControllers.length > 0) layers.push('cgroup-limits');
  if (cgroup.usable) layers.push('cgroup-kill');
  // The wrapper sets limits with the shell's `ulimit` builtin, so this needs no prlimit binary.
  if (existsSync('/bin/sh')) layers.push('rlimit');
  layers.push('process-group');
  return {
    platform: process.platform,
    bubblewrap,
    seccomp,
    userNamespaces: userNamespacesEnabled(),
    cgroup,
    prlimit: whichSystem('prlimit') !== undefined,
    ripgrep: whichSystem('rg'),
    git: whichSystem('git'),
    layers,
  };
}

/** One line per layer for `doctor` and `system_info`: whether it is active and why not. */
export function describeLayers(caps: HostCapabilities): Array<{ layer: string; active: boolean; detail: string }> {
  const c = caps.cgroup;
  const on = (l: string) => caps.layers.includes(l);
  return [
    { layer: 'bubblewrap', active: on('bubblewrap'), detail: caps.bubblewrap.works ? `${caps.bubblewrap.path} (namespaces, read-only system, private /tmp and HOME)` : caps.bubblewrap.reason ?? 'unavailable' },
    { layer: 'seccomp', active: on('seccomp'), detail: caps.seccomp?.works ? 'ptrace, mount, unshare, bpf, keyctl, io_uring, module loading … refused' : caps.seccomp?.reason ?? 'not built' },
    { layer: 'cgroup-limits', active: on('cgroup-limits'), detail: c.limitControllers.length ? `${c.version}: ${c.limitControllers.join(', ')}` : c.reason ?? 'no limit controllers writable' },
    { layer: 'cgroup-kill', active: on('cgroup-kill'), detail: c.usable ? (c.unifiedParent ? 'cgroup.kill' : 'freezer + SIGKILL') : c.reason ?? 'unavailable' },
    { layer: 'rlimit', active: on('rlimit'), detail: 'ulimit: no core dumps, file size cap, optional CPU seconds' },
    { layer: 'process-group', active: true, detail: 'each stage leads its own process group, killed as a whole' },
  ];
}

function userNamespacesEnabled(): boolean {
  if (process.platform !== 'linux') return false;
  const f = '/proc/sys/kernel/unprivileged_userns_clone';
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === '0') return process.getuid?.() === 0;
  const max = '/proc/sys/user/max_user_namespaces';
  return !existsSync(max) || Number(readFileSync(max, 'utf8').trim()) > 0;
}

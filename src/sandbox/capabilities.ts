// Detects which confinement layers and tools this host offers (for doctor, system_info and the runner).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCgroupSetup, type CgroupSetup } from './cgroup.js';

export const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export interface HostCapabilities {
  platform: NodeJS.Platform;
  bubblewrap: { available: boolean; path?: string; works: boolean; reason?: string };
  userNamespaces: boolean;
  cgroup: CgroupSetup;
  prlimit: boolean;
  ripgrep?: string;
  git?: string;
  /** The layers that will confine a command: e.g. ['bubblewrap', 'cgroup', 'rlimit', 'process-group']. */
  layers: string[];
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

/** Runs the detection; costs a few spawns, so callers cache the result. */
export function detectCapabilities(): HostCapabilities {
  const bwrapPath = process.platform === 'linux' ? whichSystem('bwrap') : undefined;
  const bubblewrap = probeBubblewrap(bwrapPath);
  const cgroup = findCgroupSetup();
  const prlimit = whichSystem('prlimit') !== undefined;
  const layers: string[] = [];
  if (bubblewrap.works) layers.push('bubblewrap');
  if (cgroup.usable) layers.push('cgroup');
  if (prlimit) layers.push('rlimit');
  layers.push('process-group');
  return {
    platform: process.platform,
    bubblewrap,
    userNamespaces: userNamespacesEnabled(),
    cgroup,
    prlimit,
    ripgrep: whichSystem('rg'),
    git: whichSystem('git'),
    layers,
  };
}

function probeBubblewrap(path: string | undefined): HostCapabilities['bubblewrap'] {
  if (!path) return { available: false, works: false, reason: 'bwrap is not installed (apt-get install bubblewrap)' };
  const r = spawnSync(path, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--', '/bin/true'], {
    timeout: 5000,
    encoding: 'utf8',
  });
  if (r.status === 0) return { available: true, path, works: true };
  const reason = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
  return { available: true, path, works: false, reason: `bwrap cannot create namespaces here: ${reason}` };
}

function userNamespacesEnabled(): boolean {
  if (process.platform !== 'linux') return false;
  const f = '/proc/sys/kernel/unprivileged_userns_clone';
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === '0') return process.getuid?.() === 0;
  const max = '/proc/sys/user/max_user_namespaces';
  return !existsSync(max) || Number(readFileSync(max, 'utf8').trim()) > 0;
}

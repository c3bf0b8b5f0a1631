// system_info: host facts from node:os, real disks, and the sandbox layers this host supports.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import type { AppDeps } from '../../control/deps.js';
import { listDisks } from './disks.js';

/** Collects host facts; cheap (no spawns beyond the cached capability probe). */
export function systemInfo(deps: AppDeps) {
  const cpus = os.cpus();
  const caps = deps.capabilities();
  return {
    hostname: os.hostname(),
    os: osName(),
    kernel: os.release(),
    arch: os.arch(),
    cpu_count: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    load_avg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    uptime_s: Math.round(os.uptime()),
    total_memory_bytes: os.totalmem(),
    free_memory_bytes: availableMemory(),
    disks: listDisks(),
    sandbox: { layers: caps.layers, bubblewrap: caps.bubblewrap.works, cgroup: caps.cgroup.usable ? caps.cgroup.version : 'none' },
  };
}

function osName(): string {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (m) return m[1];
  } catch {
    /* not Linux, or no os-release */
  }
  return `${os.type()} ${os.release()}`;
}

// MemAvailable is what a user means by "free"; os.freemem() on Linux is MemFree.
function availableMemory(): number {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    /* fall through */
  }
  return os.freemem();
}

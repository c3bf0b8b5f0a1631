// Cgroup setup for one command tree: limits (memory, pids, cpu) and a kill that reaches every
// descendant, including ones that called setsid. Works on v2, v1, and hybrid hosts (see cgroup-setup.ts).
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeRead, type CgroupSetup, type Controller } from './cgroup-setup.js';

export { findCgroupSetup, type CgroupSetup } from './cgroup-setup.js';

export interface CgroupLimits {
  memoryBytes?: number;
  pidsMax?: number;
  /** 100 = one full CPU. */
  cpuPercent?: number;
}

type Part = Controller | 'unified';

/** One cgroup (in each hierarchy) holding one command tree. */
export class CgroupHandle {
  readonly dirs: string[];
  /** This cgroup's directory per hierarchy it spans. */
  private readonly parts: Partial<Record<Part, string>> = {};
  /** The CPU limit asked for cannot throttle on this host (so no cpu hierarchy is needed for it). */
  private readonly cpuNoop: boolean;

  /**
   * Without `limits` the handle spans every hierarchy (to find and kill an existing tree by name).
   * With them it leaves out hierarchies whose limit is unset or could never bind: each one spanned
   * costs a mkdir, a cgroup migration in the spawn wrapper and an rmdir per command.
   */
  constructor(setup: CgroupSetup, name: string, limits?: CgroupLimits, { pidNamespace = false } = {}) {
    // A tree in its own pid namespace (bubblewrap, --die-with-parent) dies with its init, so on a
    // hybrid host the unified hierarchy (only there for cgroup.kill) is left out when the v1 pids
    // hierarchy can list the tree: each hierarchy joined costs a migration, which waits for an RCU
    // grace period. The kill then signals the pids listed there.
    const skipUnified = pidNamespace && limits !== undefined && Boolean(setup.v1Parents.pids);
    if (setup.unifiedParent && !skipUnified) this.parts.unified = join(setup.unifiedParent, name);
    for (const [c, parent] of Object.entries(setup.v1Parents) as Array<[Controller, string]>) {
      if (!limits || needsHierarchy(c, setup, limits) || (skipUnified && c === 'pids')) this.parts[c] = join(parent, name);
    }
    this.dirs = Object.values(this.parts);
    this.cpuNoop = cpuNeverBinds(limits?.cpuPercent, setup.cpuCount);
  }

  /** Files a process writes its pid to in order to join (used by the spawn wrapper). */
  get procsFiles(): string[] {
    return this.dirs.map((d) => join(d, 'cgroup.procs'));
  }

  /** Creates the directories and writes the limits; returns the limits in force. */
  create(limits: CgroupLimits): Array<keyof CgroupLimits> {
    for (const d of this.dirs) mkdirSync(d, { recursive: true });
    const { pids, memory: m, cpu: c, unified: v2 } = this.parts;
    const applied: Array<keyof CgroupLimits> = [];
    if (limits.pidsMax && writeIf(pids ?? v2, 'pids.max', String(limits.pidsMax))) applied.push('pidsMax');
    if (limits.memoryBytes) {
      // memsw (memory+swap) exists only with swap accounting; without it there is no swap to escape to
      // on hosts without swap, and with swap the plain limit still bounds resident memory.
      const ok = m
        ? writeIf(m, 'memory.limit_in_bytes', String(limits.memoryBytes)) && (writeIf(m, 'memory.memsw.limit_in_bytes', String(limits.memoryBytes)) || true)
        : writeIf(v2, 'memory.max', String(limits.memoryBytes)) && (writeIf(v2, 'memory.swap.max', '0') || true);
      if (ok) applied.push('memoryBytes');
    }
    if (limits.cpuPercent) {
      const quota = Math.round(limits.cpuPercent * 1000);
      // A new v1 cgroup starts with the kernel's default cfs_period_us of 100000, so only the quota is written.
      const ok = c ? writeIf(c, 'cpu.cfs_quota_us', String(quota)) : this.cpuNoop || writeIf(v2, 'cpu.max', `${quota} 100000`);
      if (ok) applied.push('cpuPercent');
    }
    return applied;
  }

  /** Pids currently in the tree. */
  pids(): number[] {
    const file = this.procsFiles[0];
    if (!file) return [];
    return safeRead(file)
      .split('\n')
      .filter(Boolean)
      .map(Number);
  }

  /** SIGKILLs every process in the cgroup; safe to call repeatedly. */
  kill(): void {
    // cgroup.kill (5.14+) kills atomically, even processes forking at that moment.
    // The write fails (ENOENT) where the kernel has no cgroup.kill, falling through to the freezer.
    if (writeIf(this.parts.unified, 'cgroup.kill', '1')) return;
    // Otherwise freeze first so nothing can fork between reading the pid list and the kills.
    const freezer = this.parts.freezer;
    if (freezer) writeIf(freezer, 'freezer.state', 'FROZEN');
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    if (freezer) writeIf(freezer, 'freezer.state', 'THAWED');
  }

  /** Signals every process in the cgroup (used for the TERM before KILL). */
  signal(sig: NodeJS.Signals): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  }

  /**
   * Whether the memory limit killed a process during the run. Only the OOM-kill counter counts:
   * memory.failcnt also rises when the kernel merely reclaims page cache at the limit (a large
   * file copy), which is not a failure. failcnt is used only on kernels without the counter (< 4.13).
   */
  oomKilled(): boolean {
    const m = this.parts.memory;
    if (m) {
      const ctl = safeRead(join(m, 'memory.oom_control'));
      if (/^oom_kill /m.test(ctl)) return /^oom_kill [1-9]/m.test(ctl);
      return /^under_oom 1/m.test(ctl) || Number(safeRead(join(m, 'memory.failcnt'))) > 0;
    }
    const u = this.parts.unified;
    return u ? /^oom_kill [1-9]/m.test(safeRead(join(u, 'memory.events'))) : false;
  }

  /** Whether a fork was refused because of pids.max. */
  pidsLimitHit(): boolean {
    const p = this.parts.pids ?? this.parts.unified;
    return p ? /max [1-9]/.test(safeRead(join(p, 'pids.events'))) : false;
  }

  /** Removes the cgroup directories; false while a process is left (rmdir never touches a live tree). */
  remove(): boolean {
    let ok = true;
    for (const d of this.dirs) {
      try {
        rmdirSync(d);
      } catch (err) {
        // ENOENT: already removed (an earlier call, or the sweeper); EBUSY: a process is still inside.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') ok = false;
      }
    }
    return ok;
  }
}

/**
 * Whether the command's tree needs this v1 hierarchy: the freezer (kill without cgroup.kill) always,
 * pids when limited or when it is the only kill/accounting hierarchy, memory and cpu when they can bind.
 */
function needsHierarchy(c: Controller, setup: CgroupSetup, limits: CgroupLimits): boolean {
  if (c === 'freezer') return true;
  if (c === 'pids') return Boolean(limits.pidsMax) || !setup.unifiedParent;
  if (c === 'memory') return Boolean(limits.memoryBytes);
  return Boolean(limits.cpuPercent) && !cpuNeverBinds(limits.cpuPercent, setup.cpuCount);
}

/** A quota of N full CPUs cannot throttle a tree on a host with at most N CPUs online. */
function cpuNeverBinds(cpuPercent: number | undefined, cpuCount: number | undefined): boolean {
  return cpuPercent !== undefined && cpuCount !== undefined && cpuCount > 0 && cpuPercent >= cpuCount * 100;
}

/** Writes a control file; false when it is absent or refused (the limit is then reported as not applied). */
function writeIf(dir: string | undefined, file: string, value: string): boolean {
  if (!dir) return false;
  try {
    writeFileSync(join(dir, file), value);
    return true;
  } catch {
    return false;
  }
}

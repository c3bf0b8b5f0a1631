// Cgroup setup for one command tree: limits (memory, pids, cpu) and a kill that reaches every
// descendant, including ones that called setsid. Works on v2, v1, and hybrid hosts (v1 controllers
// plus an empty unified hierarchy, whose cgroup.kill still kills a whole tree).
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Controller = 'pids' | 'memory' | 'cpu' | 'freezer';

export interface CgroupSetup {
  usable: boolean;
  version: 'v2' | 'v1' | 'hybrid' | 'none';
  /** Parent directory (ours) under the unified hierarchy, where cgroup.kill works. */
  unifiedParent?: string;
  /** Parent directories under each v1 controller. */
  v1Parents: Partial<Record<Controller, string>>;
  /** Controllers that can enforce limits: any of pids, memory, cpu. */
  limitControllers: string[];
  reason?: string;
}

export interface CgroupLimits {
  memoryBytes?: number;
  pidsMax?: number;
  /** 100 = one full CPU. */
  cpuPercent?: number;
}

const SAFE_PATH = /^[\w./-]+$/;
const LIMIT_FILE: Record<Controller, string> = { pids: 'pids.max', memory: 'memory.limit_in_bytes', cpu: 'cpu.cfs_quota_us', freezer: 'freezer.state' };

/** Locates the cgroup hierarchies this process may create children in. */
export function findCgroupSetup(): CgroupSetup {
  const none = (reason: string): CgroupSetup => ({ usable: false, version: 'none', v1Parents: {}, limitControllers: [], reason });
  if (process.platform !== 'linux') return none('cgroups exist only on Linux');
  let own: string, mounts: string;
  try {
    own = readFileSync('/proc/self/cgroup', 'utf8');
    mounts = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return none('/proc is not readable');
  }
  const mountOf = parseMounts(mounts);
  const v1Parents: Partial<Record<Controller, string>> = {};
  let unifiedParent: string | undefined;
  for (const line of own.trim().split('\n')) {
    const [, ctrls = '', path = '/'] = line.split(':');
    if (ctrls === '' && mountOf.unified) unifiedParent = tryParent(join(mountOf.unified, path));
    for (const c of ctrls.split(',') as Controller[]) {
      const mount = mountOf.v1.get(c);
      if (mount && ['pids', 'memory', 'cpu', 'freezer'].includes(c)) {
        const parent = tryParent(join(mount, path));
        if (parent) v1Parents[c] = parent;
      }
    }
  }
  // Each hierarchy joined costs a cgroup migration per spawn; with cgroup.kill the freezer is not needed.
  if (unifiedParent && existsSync(join(unifiedParent, 'cgroup.kill'))) delete v1Parents.freezer;
  const limitControllers = (['pids', 'memory', 'cpu'] as Controller[]).filter((c) => v1Parents[c] && existsSync(join(v1Parents[c]!, LIMIT_FILE[c])));
  if (unifiedParent && limitControllers.length === 0) limitControllers.push(...(enableV2Controllers(unifiedParent) as Controller[]));
  const hasV1 = Object.keys(v1Parents).length > 0;
  const version = unifiedParent && hasV1 ? 'hybrid' : unifiedParent ? 'v2' : hasV1 ? 'v1' : 'none';
  const usable = Boolean(unifiedParent || v1Parents.freezer || v1Parents.pids);
  return {
    usable,
    version,
    unifiedParent,
    v1Parents,
    limitControllers,
    reason: usable ? undefined : 'no writable cgroup hierarchy (run as root or with a delegated cgroup)',
  };
}

function parseMounts(mountinfo: string): { unified?: string; v1: Map<string, string> } {
  const v1 = new Map<string, string>();
  let unified: string | undefined;
  for (const line of mountinfo.split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const mountPoint = pre.split(' ')[4]!;
    const [fstype, , opts = ''] = post.split(' ');
    if (fstype === 'cgroup2') unified ??= mountPoint;
    if (fstype === 'cgroup') for (const o of opts.split(',')) if (!v1.has(o)) v1.set(o, mountPoint);
  }
  return { unified, v1 };
}

/** Creates `<dir>/workbench` and checks it is writable; returns it or undefined. */
function tryParent(dir: string): string | undefined {
  const parent = join(dir, 'workbench');
  try {
    mkdirSync(parent, { recursive: true });
    const probe = join(parent, `probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return SAFE_PATH.test(parent) ? parent : undefined;
  } catch {
    return undefined;
  }
}

function enableV2Controllers(parent: string): string[] {
  const available = safeRead(join(parent, 'cgroup.controllers')).split(/\s+/);
  const wanted = ['pids', 'memory', 'cpu'].filter((c) => available.includes(c));
  try {
    writeFileSync(join(parent, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
    return wanted;
  } catch {
    return [];
  }
}

function safeRead(p: string): string {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return '';
  }
}

/** One cgroup (in each hierarchy) holding one command tree. */
export class CgroupHandle {
  readonly dirs: string[];
  private readonly setup: CgroupSetup;
  private readonly name: string;

  constructor(setup: CgroupSetup, name: string) {
    this.setup = setup;
    this.name = name;
    const parents = [setup.unifiedParent, ...Object.values(setup.v1Parents)].filter(Boolean) as string[];
    this.dirs = parents.map((p) => join(p, name));
  }

  /** Files a process writes its pid to in order to join (used by the spawn wrapper). */
  get procsFiles(): string[] {
    return this.dirs.map((d) => join(d, 'cgroup.procs'));
  }

  /** Creates the directories and writes the limits; returns the limits that took effect (read back). */
  create(limits: CgroupLimits): Array<keyof CgroupLimits> {
    for (const d of this.dirs) mkdirSync(d, { recursive: true });
    const v1 = (c: Controller) => (this.setup.v1Parents[c] ? join(this.setup.v1Parents[c]!, this.name) : undefined);
    const v2 = this.setup.unifiedParent ? join(this.setup.unifiedParent, this.name) : undefined;
    const applied: Array<keyof CgroupLimits> = [];
    if (limits.pidsMax && writeIf(v1('pids') ?? v2, 'pids.max', String(limits.pidsMax))) applied.push('pidsMax');
    if (limits.memoryBytes) {
      const m = v1('memory');
      // memsw (memory+swap) exists only with swap accounting; without it there is no swap to escape to
      // on hosts without swap, and with swap the plain limit still bounds resident memory.
      const ok = m
        ? writeIf(m, 'memory.limit_in_bytes', String(limits.memoryBytes)) && (writeIf(m, 'memory.memsw.limit_in_bytes', String(limits.memoryBytes)) || true)
        : writeIf(v2, 'memory.max', String(limits.memoryBytes)) && (writeIf(v2, 'memory.swap.max', '0') || true);
      if (ok) applied.push('memoryBytes');
    }
    if (limits.cpuPercent) {
      const c = v1('cpu');
      const quota = Math.round(limits.cpuPercent * 1000);
      const ok = c
        ? writeIf(c, 'cpu.cfs_period_us', '100000') && writeIf(c, 'cpu.cfs_quota_us', String(quota))
        : writeIf(v2, 'cpu.max', `${quota} 100000`);
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
    const unified = this.setup.unifiedParent ? join(this.setup.unifiedParent, this.name) : undefined;
    if (unified && existsSync(join(unified, 'cgroup.kill')) && writeIf(unified, 'cgroup.kill', '1')) return;
    // Otherwise freeze first so nothing can fork between reading the pid list and the kills.
    const freezer = this.setup.v1Parents.freezer ? join(this.setup.v1Parents.freezer, this.name) : undefined;
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
    const m = this.setup.v1Parents.memory ? join(this.setup.v1Parents.memory, this.name) : undefined;
    if (m) {
      const ctl = safeRead(join(m, 'memory.oom_control'));
      if (/^oom_kill /m.test(ctl)) return /^oom_kill [1-9]/m.test(ctl);
      return /^under_oom 1/m.test(ctl) || Number(safeRead(join(m, 'memory.failcnt'))) > 0;
    }
    const u = this.setup.unifiedParent ? join(this.setup.unifiedParent, this.name) : undefined;
    return u ? /^oom_kill [1-9]/m.test(safeRead(join(u, 'memory.events'))) : false;
  }

  /** Whether a fork was refused because of pids.max. */
  pidsLimitHit(): boolean {
    const p = this.setup.v1Parents.pids ? join(this.setup.v1Parents.pids, this.name) : this.dirs[0];
    return p ? /max [1-9]/.test(safeRead(join(p, 'pids.events'))) : false;
  }

  /** Removes the cgroup directories (they must be empty: kill first, then wait). */
  remove(): boolean {
    let ok = true;
    for (const d of this.dirs) {
      try {
        if (existsSync(d)) rmdirSync(d);
      } catch {
        ok = false;
      }
    }
    return ok;
  }
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

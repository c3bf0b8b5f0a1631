// Finds the cgroup hierarchies this process may create children in. Works on v2, v1, and hybrid
// hosts (v1 controllers plus an empty unified hierarchy, whose cgroup.kill still kills a whole tree).
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

/** The v1 controllers Workbench uses. */
export type Controller = 'pids' | 'memory' | 'cpu' | 'freezer';

export interface CgroupSetup {
  usable: boolean;
  version: 'v2' | 'v1' | 'hybrid' | 'none';
  /** Parent directory (ours) under the unified hierarchy, where cgroup.kill works. */
  unifiedParent?: string;
  /** Parent directories under each v1 controller. */
  v1Parents: Partial<Record<Controller, string>>;
  /** Controllers that can enforce limits: any of pids, memory, cpu. */
  limitControllers: string[];
  /** Online CPUs at detection: a CPU quota of this many full CPUs can never throttle. */
  cpuCount?: number;
  reason?: string;
}

const SAFE_PATH = /^[\w./-]+$/;
/** The file whose presence shows a v1 controller can enforce its limit. */
export const LIMIT_FILE: Record<Controller, string> = { pids: 'pids.max', memory: 'memory.limit_in_bytes', cpu: 'cpu.cfs_quota_us', freezer: 'freezer.state' };

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
  const { unifiedParent, v1Parents } = findParents(own, parseMounts(mounts));
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
    cpuCount: cpus().length || undefined,
    reason: usable ? undefined : 'no writable cgroup hierarchy (run as root or with a delegated cgroup)',
  };
}

function findParents(own: string, mountOf: { unified?: string; v1: Map<string, string> }): Pick<CgroupSetup, 'unifiedParent' | 'v1Parents'> {
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
  return { unifiedParent, v1Parents };
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

/** A control file's trimmed content, or '' when it cannot be read. */
export function safeRead(p: string): string {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return '';
  }
}

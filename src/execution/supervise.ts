// Supervision shared by every launch (commands and helper programs): the per-run cgroup, the
// deadline, cancellation, and the tree kill once the run is over.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { HostCapabilities } from '../sandbox/capabilities.js';
import { CgroupHandle, type CgroupLimits } from '../sandbox/cgroup.js';
import { killTree, signalGroups } from './kill-tree.js';

export interface Ended {
  code: number | null;
  signal: string | null;
  reason: 'exit' | 'timeout' | 'cancelled';
}

export interface Deadline {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A fresh cgroup for one run, or undefined where cgroups are not usable (or creation failed).
 * The name starts `run-<pid>-` so the start-up sweeper can remove leftovers of a dead server.
 * `pidNamespace`: the tree runs in its own pid namespace (see CgroupHandle).
 */
export function createRunCgroup(caps: HostCapabilities, limits: CgroupLimits = {}, opts: { pidNamespace?: boolean } = {}): CgroupHandle | undefined {
  if (!caps.cgroup.usable) return undefined;
  const handle = new CgroupHandle(caps.cgroup, `run-${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}`, limits, opts);
  try {
    handle.create(limits);
    return handle;
  } catch {
    handle.remove();
    return undefined;
  }
}

/** The pids of the spawned children (each leads its own process group). */
export function pidsOf(children: ChildProcess[]): number[] {
  return children.map((c) => c.pid).filter((p): p is number => typeof p === 'number');
}

/** Waits for the last child; on timeout/cancel kills the tree; afterwards kills any leftover descendant. */
export function superviseUntilExit(children: ChildProcess[], spec: Deadline, cgroup?: CgroupHandle): Promise<Ended> {
  const pids = pidsOf(children);
  return new Promise((resolve) => {
    let reason: Ended['reason'] = 'exit';
    const stop = (why: Ended['reason']) => {
      reason = why;
      killTree(pids, cgroup);
    };
    const timer = setTimeout(() => stop('timeout'), spec.timeoutMs);
    const onAbort = () => stop('cancelled');
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    let closed = 0;
    const last = children[children.length - 1]!;
    let lastExit: { code: number | null; signal: string | null } = { code: null, signal: null };
    last.once('exit', (code, signal) => {
      lastExit = { code, signal };
      // No process outlives the call: once the command is done, anything it left behind
      // (a daemon holding our pipes open) is killed, which also lets the pipes close.
      killTree(pids, cgroup);
    });
    const finished = new Set<ChildProcess>();
    for (const child of children) {
      const onDone = () => {
        if (finished.has(child)) return;
        finished.add(child);
        if (++closed < children.length) return;
        clearTimeout(timer);
        spec.signal?.removeEventListener('abort', onAbort);
        signalGroups(pids, 'SIGKILL');
        resolve({ ...lastExit, reason });
      };
      child.once('close', onDone);
      child.once('error', onDone);
    }
  });
}

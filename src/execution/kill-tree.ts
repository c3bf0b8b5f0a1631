// Ends a command tree: the cgroup when there is one (reaches setsid'd descendants), the process groups always.
import type { CgroupHandle } from '../sandbox/cgroup.js';

/** Sends `sig` to every process group leader's group; ESRCH (already gone) is ignored. */
export function signalGroups(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, sig);
    } catch {
      /* group already gone */
    }
  }
}

/** SIGKILLs the whole tree now. */
export function killTree(pids: number[], cgroup?: CgroupHandle): void {
  cgroup?.kill();
  signalGroups(pids, 'SIGKILL');
}

/**
 * Removes the cgroup once it is empty, killing again while it is not; false if it is still busy at
 * the deadline. rmdir is tried first: it fails (EBUSY) on a cgroup that still holds a process, so it
 * doubles as the emptiness check and the usual case (the tree is gone by the time its pipes close)
 * costs no polling. Killed processes can linger a moment while the kernel tears them down.
 */
export async function reapCgroup(cgroup: CgroupHandle, { timeoutMs = 2000, unref = false } = {}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    if (cgroup.remove()) return true;
    if (Date.now() >= deadline) return false;
    cgroup.kill();
    await new Promise((r) => {
      const t = setTimeout(r, wait);
      if (unref) t.unref();
    });
  }
}

/**
 * Removes the cgroup of a finished run without making the caller wait: now when it is already
 * empty, otherwise in the background. The tree was SIGKILLed already (a pending SIGKILL never
 * returns to user space), so answering first is safe. A cgroup still busy after 30 s (a process
 * stuck in uninterruptible I/O) is left to the start-up sweeper, which removes empty `run-<pid>-*`
 * cgroups of dead owners.
 */
export function releaseCgroup(cgroup: CgroupHandle): void {
  if (cgroup.remove()) return;
  // unref: a background removal never keeps a finishing process alive (the sweeper has the rest).
  void reapCgroup(cgroup, { timeoutMs: 30_000, unref: true }).catch(() => undefined);
}

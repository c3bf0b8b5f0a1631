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

/** Waits (bounded) until the cgroup is empty, then removes it. */
export async function reapCgroup(cgroup: CgroupHandle, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (cgroup.pids().length > 0 && Date.now() < deadline) {
    cgroup.kill();
    await new Promise((r) => setTimeout(r, 10));
  }
  return cgroup.remove();
}

// Removes run cgroups left behind by a Workbench process that died mid-run (SIGKILL, crash):
// `run-<pid>-…` directories whose owner pid is gone and that hold no process any more.
import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupSetup } from './cgroup.js';

/** Sweeps stale run cgroups under every parent; returns how many were removed. */
export function sweepStaleCgroups(setup: CgroupSetup): number {
  let removed = 0;
  for (const parent of [setup.unifiedParent, ...Object.values(setup.v1Parents)]) {
    if (!parent) continue;
    for (const name of list(parent)) {
      const owner = /^run-(\d+)-/.exec(name)?.[1];
      if (!owner || ownerAlive(Number(owner))) continue;
      const dir = join(parent, name);
      try {
        // rmdir refuses a cgroup that still has processes, so a live tree is never touched.
        if (readFileSync(join(dir, 'cgroup.procs'), 'utf8').trim() === '') {
          rmdirSync(dir);
          removed++;
        }
      } catch {
        /* busy or already gone */
      }
    }
  }
  return removed;
}

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

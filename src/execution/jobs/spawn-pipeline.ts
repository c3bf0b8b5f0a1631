// Spawns a job's stages through the confinement wrapper (cgroup + rlimits + bubblewrap),
// connected by pipes like the synchronous runner: stdout of the last stage and stderr of every stage are returned as streams.
import { spawn, type ChildProcess } from 'node:child_process';
import { CgroupHandle } from '../../sandbox/cgroup.js';
import { planSpawn } from '../../sandbox/plan.js';
import type { JobSpec } from './types.js';

/** Creates the job's cgroup when the host has one (named after the job, so reconcile can find it). */
export function createJobCgroup(spec: JobSpec): CgroupHandle | undefined {
  if (!spec.caps.cgroup.usable) return undefined;
  const handle = jobCgroup(spec);
  try {
    handle.create(spec.cgroupLimits);
    return handle;
  } catch {
    handle.remove();
    return undefined;
  }
}

/** The handle of a job's cgroup (it may or may not exist). */
export function jobCgroup(spec: JobSpec): CgroupHandle {
  return new CgroupHandle(spec.caps.cgroup, `job-${spec.id}`);
}

/** Spawns every stage, each in its own process group; throws if a stage cannot be spawned. */
export function spawnStages(spec: JobSpec, cgroup: CgroupHandle | undefined): { children: ChildProcess[]; layers: string[] } {
  const children: ChildProcess[] = [];
  let layers: string[] = [];
  for (const [i, stage] of spec.stages.entries()) {
    const plan = planSpawn(stage, { ...spec.sandbox, cwd: spec.cwd }, spec.caps, cgroup);
    layers = plan.layers;
    const stdinFrom = i === 0 ? (spec.stdinOpen ? 'pipe' : 'ignore') : children[i - 1]!.stdout!;
    const child = spawn(plan.file, plan.args, { cwd: spec.cwd, env: spec.env, stdio: [stdinFrom, 'pipe', 'pipe'], detached: true });
    if (i > 0) children[i - 1]!.stdout!.destroy();
    children.push(child);
  }
  return { children, layers };
}

/** Pids of the spawned stages. */
export function pidsOf(children: ChildProcess[]): number[] {
  return children.map((c) => c.pid).filter((p): p is number => typeof p === 'number');
}

// Spawns a job's stages through the confinement wrapper (cgroup + rlimits + bubblewrap),
// connected by pipes like the synchronous runner: stdout of the last stage and stderr of every stage are returned as streams.
// The confinement comes from the launcher's policy and host facts (LaunchContext), never from spec.json.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { CgroupHandle } from '../../sandbox/cgroup.js';
import type { CgroupSetup } from '../../sandbox/cgroup.js';
import { SYSTEM_PATH } from '../../sandbox/capabilities.js';
import { envArgs, planSpawn } from '../../sandbox/plan.js';
import { capsForPolicy, cgroupLimitsFromPolicy, sandboxFromPolicy } from '../../sandbox/policy-sandbox.js';
import type { JobSpec, LaunchContext } from './types.js';

/** Creates the job's cgroup when the host has one (named after the job, so reconcile can find it). */
export function createJobCgroup(ctx: LaunchContext, id: string): CgroupHandle | undefined {
  if (!ctx.caps.cgroup.usable) return undefined;
  const handle = jobCgroup(ctx.caps.cgroup, id);
  try {
    handle.create(cgroupLimitsFromPolicy(ctx.policy));
    return handle;
  } catch {
    handle.remove();
    return undefined;
  }
}

/**
 * The handle of a job's cgroup under this host's cgroup setup (it may or may not exist). The name
 * is a one-way digest of the job id: /proc/<pid>/cgroup is readable by every local user, and a job
 * id must not leak through it (SPEC §4.1a).
 */
export function jobCgroup(setup: CgroupSetup, id: string): CgroupHandle {
  return new CgroupHandle(setup, jobCgroupName(id));
}

/** `job-` plus the first 24 hex digits of sha256(id). */
export function jobCgroupName(id: string): string {
  return `job-${createHash('sha256').update(`workbench-job:${id}`).digest('hex').slice(0, 24)}`;
}

/** Spawns every stage, each in its own process group; throws if a stage cannot be spawned. */
export function spawnStages(ctx: LaunchContext, spec: JobSpec, cgroup: CgroupHandle | undefined): { children: ChildProcess[]; layers: string[] } {
  const children: ChildProcess[] = [];
  const sandbox = sandboxFromPolicy(ctx.policy, spec.cwd, spec.network);
  let layers: string[] = [];
  for (const [i, stage] of spec.stages.entries()) {
    const plan = planSpawn(stage, sandbox, capsForPolicy(ctx.policy, ctx.caps), cgroup, { envFd: ENV_FD });
    layers = plan.layers;
    const stdinFrom = i === 0 ? (spec.stdinOpen ? 'pipe' : 'ignore') : children[i - 1]!.stdout!;
    // Under bubblewrap the host-side wrapper and bwrap get a fixed environment; the job's is set inside (via ENV_FD, never argv).
    const viaFd = plan.envFd === ENV_FD;
    const stdio: StdioOptions = viaFd ? [stdinFrom, 'pipe', 'pipe', 'ignore', 'pipe'] : [stdinFrom, 'pipe', 'pipe'];
    const child = spawn(plan.file, plan.args, { cwd: spec.cwd, env: viaFd ? HOST_ENV : spec.env, stdio, detached: true });
    if (viaFd) writeEnv(child, spec.env);
    if (i > 0) children[i - 1]!.stdout!.destroy();
    children.push(child);
  }
  return { children, layers };
}

/** The fd bubblewrap reads the job's environment from (3 is the seccomp program's). */
const ENV_FD = 4;
/** The whole environment of the host-side wrapper and bwrap when the job's own is applied inside the sandbox. */
const HOST_ENV = { PATH: SYSTEM_PATH.join(':'), LANG: 'C.UTF-8' };

/** Writes the job's environment to the child's ENV_FD pipe (bwrap reads it all before it starts the command). */
function writeEnv(child: ChildProcess, env: Record<string, string>): void {
  const pipe = child.stdio[ENV_FD] as Writable | null;
  if (!pipe) return;
  pipe.on('error', () => undefined); // the wrapper failed before bwrap read it: the command does not run either
  pipe.end(envArgs(env));
}

/** Pids of the spawned stages. */
export function pidsOf(children: ChildProcess[]): number[] {
  return children.map((c) => c.pid).filter((p): p is number => typeof p === 'number');
}

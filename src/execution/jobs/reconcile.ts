// Reconcile: makes the store agree with the disk and the process table for every active job.
// An end in status.json is recorded; a live supervisor (same pid AND start time) means running;
// anything else is `lost`, with what is known in the note, and leftovers of its tree are killed.
import { statSync } from 'node:fs';
import type { JobsRepo } from '../../store/jobs-repo.js';
import { killTree } from '../kill-tree.js';
import { readJson } from './atomic-write.js';
import { jobPaths, type JobPaths } from './paths.js';
import { isSameProcess } from './proc-identity.js';
import { jobCgroup } from './spawn-pipeline.js';
import type { SupervisorInfo } from './supervisor.js';
import type { CgroupSetup } from '../../sandbox/cgroup.js';
import type { Job, JobEnd } from './types.js';

/** How long a claimed job may wait for its supervisor to appear before it counts as lost. */
const LAUNCH_GRACE_MS = 15_000;

export interface ReconcileContext {
  repo: JobsRepo;
  stateDir: string;
  /** This host's cgroup setup (never a spec's): where a lost job's leftovers are looked for. */
  cgroup: () => CgroupSetup;
  now: () => Date;
}

/** Reconciles every running job; returns the ids whose state changed. */
export function reconcileJobs(ctx: ReconcileContext): string[] {
  const changed: string[] = [];
  for (const job of ctx.repo.active()) if (job.status === 'running' && reconcileJob(ctx, job)) changed.push(job.id);
  return changed;
}

/** Reconciles one running job; true when it was found ended (recorded or lost). */
export function reconcileJob(ctx: ReconcileContext, job: Job & { status: 'running' }): boolean {
  const paths = jobPaths(ctx.stateDir, job.id);
  const recorded = readJson<JobEnd>(paths.status);
  if (recorded) return ctx.repo.finish(job.id, recorded) || true;
  const info = readJson<SupervisorInfo>(paths.supervisor);
  const supPid = job.supPid ?? info?.supPid ?? null;
  const supStart = job.supStart ?? info?.supStart ?? null;
  if (isSameProcess(supPid, supStart)) return false;
  if (!supPid && ctx.now().getTime() - Date.parse(job.startedAt) < LAUNCH_GRACE_MS) return false;
  const late = readJson<JobEnd>(paths.status); // the supervisor may have finished between the two reads
  if (late) return ctx.repo.finish(job.id, late) || true;
  ctx.repo.finish(job.id, lostEnd(ctx, job, paths, info));
  return true;
}

function lostEnd(ctx: ReconcileContext, job: Job, paths: JobPaths, info: SupervisorInfo | undefined): JobEnd {
  const killed = killLeftovers(ctx, job.id, info);
  const size = (s: 'stdout' | 'stderr') => fileSize(paths.log(s));
  const parts = [
    info ? `the supervisor (pid ${info.supPid}) ended without recording an end` : 'the supervisor never started (or died before recording itself)',
    `logs hold stdout ${size('stdout')} bytes, stderr ${size('stderr')} bytes`,
    killed > 0 ? `${killed} leftover process(es) of the command were killed` : 'no process of the command was left',
  ];
  return {
    status: 'lost',
    exitCode: null,
    signal: null,
    endedAt: ctx.now().toISOString(),
    counts: { ...job.counts, stdoutBytes: Math.max(job.counts.stdoutBytes, size('stdout')), stderrBytes: Math.max(job.counts.stderrBytes, size('stderr')) },
    note: `${parts.join('; ')}.`,
  };
}

/** Kills what is left of an unsupervised tree: the job's cgroup, and recorded process groups still owned by the same processes. */
function killLeftovers(ctx: ReconcileContext, id: string, info: SupervisorInfo | undefined): number {
  const setup = ctx.cgroup();
  const cgroup = setup.usable ? jobCgroup(setup, id) : undefined;
  const alive = (info?.procs ?? []).filter((p) => isSameProcess(p.pid, p.start)).map((p) => p.pid);
  const inCgroup = cgroup?.pids() ?? [];
  killTree(alive, cgroup);
  cgroup?.remove();
  return new Set([...alive, ...inCgroup]).size;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

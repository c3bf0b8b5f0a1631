// The jobs service a server (or the CLI) holds: start, reconcile tick, queue, retention, lookups.
import { mkdirSync, rmSync } from 'node:fs';
import { ulid } from 'ulid';
import type { Config } from '../../config/schema.js';
import type { Db } from '../../store/db.js';
import { createJobsRepo, type JobsRepo } from '../../store/jobs-repo.js';
import { createLogBudgetRepo } from '../../store/log-budget-repo.js';
import { AppError, notFound } from '../../shared/errors.js';
import { sha256Hex, writeFileAtomic } from './atomic-write.js';
import { assertLogHeadroom } from './log-headroom.js';
import { jobPaths } from './paths.js';
import { reconcileJob, reconcileJobs } from './reconcile.js';
import { pruneEndedJobs } from './retention.js';
import { startQueued } from './scheduler.js';
import type { Job, JobSpec, LaunchContext } from './types.js';
import { canonicalJson, type BoundPolicy } from '../../config/policy-record.js';
import type { HostCapabilities } from '../../sandbox/capabilities.js';

export interface JobLimits {
  maxRunning: number;
  maxQueued: number;
  maxLogBytes: number;
  retentionDays: number;
  /** jobs.max_total_log_bytes: all job logs of the state directory together. */
  maxTotalLogBytes: number;
  /** jobs.min_free_disk_bytes: free space the state directory's filesystem keeps. */
  minFreeDiskBytes: number;
}

/** The job limits of a configuration's [jobs] section. */
export function jobLimitsOf(j: Config['jobs']): JobLimits {
  return {
    maxRunning: j.max_running,
    maxQueued: j.max_queued,
    maxLogBytes: j.max_log_bytes,
    retentionDays: j.retention_days,
    maxTotalLogBytes: j.max_total_log_bytes,
    minFreeDiskBytes: j.min_free_disk_bytes,
  };
}

export interface JobsContext {
  db: Db;
  dbPath: string;
  stateDir: string;
  limits: JobLimits;
  /** The server's policy: recorded with every job it starts; it claims only jobs bound to it. */
  policy: BoundPolicy;
  /** The host's confinement layers (detected once, on first use). */
  caps: () => HostCapabilities;
  now: () => Date;
  onError?: (err: unknown) => void;
}

/** A decided, ready-to-run request (the policy has already produced the stages). */
export type StartRequest = Omit<JobSpec, 'id' | 'policyFp'> & { name: string | null; command: string };

const PRUNE_EVERY_MS = 60_000;
const PID_WAIT_MS = 2000;

/** Creates the service over an open store. Nothing runs until start()/tick()/startTimer(). */
export function createJobService(ctx: JobsContext) {
  const repo: JobsRepo = createJobsRepo(ctx.db);
  const budget = createLogBudgetRepo(ctx.db);
  const logBudget = { maxTotalBytes: ctx.limits.maxTotalLogBytes, minFreeDiskBytes: ctx.limits.minFreeDiskBytes };
  const launch = (): LaunchContext => ({
    stateDir: ctx.stateDir, dbPath: ctx.dbPath, policy: ctx.policy.record, policyFp: ctx.policy.fingerprint,
    caps: ctx.caps(), maxLogBytes: ctx.limits.maxLogBytes, maxRunning: ctx.limits.maxRunning, logBudget, serverHome: process.env.HOME,
  });
  const rec = { repo, stateDir: ctx.stateDir, cgroup: () => ctx.caps().cgroup, now: ctx.now };
  const sched = { repo, policyFp: ctx.policy.fingerprint, maxRunning: ctx.limits.maxRunning, launch, now: ctx.now };
  let lastPrune = 0;
  const svc = {
    ctx,
    repo,
    /** Queues the job, starts it if a slot is free, and answers once the supervisor reports the pid. */
    async start(req: StartRequest): Promise<{ job: Job; pid: number | null }> {
      assertLogHeadroom(budget, ctx.stateDir, logBudget);
      const id = ulid();
      const paths = jobPaths(ctx.stateDir, id);
      mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
      const { name, command, ...run } = req;
      const spec: JobSpec = { ...run, id, policyFp: ctx.policy.fingerprint };
      const text = JSON.stringify(spec);
      writeFileAtomic(paths.spec, text);
      const policy = { policy: canonicalJson(ctx.policy.record), policyFp: ctx.policy.fingerprint, specSha256: sha256Hex(text) };
      const created = repo.insertQueued({ id, name, command, createdAt: ctx.now().toISOString(), stdinOpen: req.stdinOpen, ...policy }, ctx.limits);
      if (created === 'busy') {
        rmSync(paths.dir, { recursive: true, force: true });
        throw new AppError('busy', `the job queue is full (${ctx.limits.maxQueued} queued behind ${ctx.limits.maxRunning} running)`, {
          hint: 'wait for jobs to end (job_wait) or cancel some (job_cancel), then retry',
        });
      }
      const launched = startQueued(sched);
      for (const [other, l] of launched) if (other !== id) void l.ready(PID_WAIT_MS);
      const pid = launched.has(id) ? await launched.get(id)!.ready(PID_WAIT_MS) : null;
      return { job: svc.get(id), pid };
    },
    /** The job, reconciled against the disk first when it is running. */
    get(id: string): Job {
      const job = validId(id) ? repo.get(id) : undefined;
      if (!job) throw notFound(`no job with id ${id}`, 'list jobs with job_list');
      if (job.status === 'running' && reconcileJob(rec, job)) return repo.get(id)!;
      return job;
    },
    /** Reconcile every active job, start queued ones, prune old ones (at most once a minute). */
    tick(): void {
      reconcileJobs(rec);
      startQueued(sched).forEach((l) => void l.ready(PID_WAIT_MS));
      const now = ctx.now().getTime();
      if (now - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now;
        pruneEndedJobs(repo, ctx.stateDir, ctx.limits.retentionDays, ctx.now());
      }
    },
    /** Runs tick() every `ms` on an unref'd timer; returns the stop function. */
    startTimer(ms: number): () => void {
      const timer = setInterval(() => {
        try {
          svc.tick();
        } catch (err) {
          ctx.onError?.(err);
        }
      }, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return svc;
}

export type JobService = ReturnType<typeof createJobService>;

function validId(id: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id);
}

// What the job_* tools do: the process's job service, start requests, views and log windows.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { requireJobPolicy } from '../../execution/jobs/job-policy.js';
import { viewJob } from '../../execution/jobs/job-view.js';
import { readJobLog } from '../../execution/jobs/job-log.js';
import { inputBusy, sendJobInput } from '../../execution/jobs/job-control.js';
import { isLimitNote } from '../../execution/jobs/log-budget.js';
import { createJobService, jobLimitsOf, type JobService, type StartRequest } from '../../execution/jobs/service.js';
import { isEnded, type Job } from '../../execution/jobs/types.js';
import type { AppDeps } from '../deps.js';
import type { ToolOutcome } from '../tool.js';
import { decideOrThrow } from './decide-or-throw.js';
import type { ListArgs, OutputArgs, StartArgs } from './jobs-schema.js';
import { checkGitStages, commandEnv, requireConfinement } from './run-command-exec.js';
import { serverPolicy } from '../server-policy.js';

/** The job controls the handlers call, loaded with them. */
export { cancelJob, waitForJob } from '../../execution/jobs/job-control.js';

/**
 * job_input, one call at a time per job, and only into a job bound to this server's policy (its
 * stdin drives a command run under that policy): concurrent calls would interleave their pieces in
 * the FIFO. Later calls wait for earlier ones, in arrival order. A call queued behind one answered
 * `busy` is answered `busy` at once with nothing written: writing it would put its data before
 * the rest the earlier caller is about to resend.
 */
export async function sendInputInOrder(deps: AppDeps, id: string, data: string, close: boolean): Promise<{ bytes_written: number; closed: boolean }> {
  const svc = jobService(deps);
  requireJobPolicy(svc.get(id), svc.ctx.policy.fingerprint, 'send input to');
  const queues = deps.service('job-input-order', () => new Map<string, Promise<boolean>>());
  const clear = queues.get(id) ?? Promise.resolve(true);
  const mine = clear.then((ok) => {
    if (!ok) throw inputBusy(id, 0, Buffer.byteLength(data), close);
    return sendJobInput(svc, id, data, close);
  });
  const settled = mine.then(
    () => true,
    (err: unknown) => !(err instanceof AppError && err.errorClass === 'busy'),
  );
  queues.set(id, settled);
  try {
    return await mine;
  } finally {
    if (queues.get(id) === settled) queues.delete(id);
  }
}

const RECONCILE_MS = 2000;

/** The process's job service: created on first use, reconciled at once and then every 2 s (unref'd timer). */
export function jobService(deps: AppDeps): JobService {
  return deps.service('jobs', () => {
    const { config, runtime } = deps;
    const svc = createJobService({
      db: deps.store().db,
      dbPath: join(runtime.stateDir, 'workbench.db'),
      stateDir: runtime.stateDir,
      limits: jobLimitsOf(config.jobs),
      policy: serverPolicy(deps),
      caps: () => deps.capabilities(),
      now: () => deps.now(),
      onError: (err) => deps.logger.error({ event: 'jobs_reconcile_failed', err }),
    });
    svc.tick();
    deps.onClose(svc.startTimer(RECONCILE_MS));
    return svc;
  });
}

/** Start-up hook: reconcile jobs and start the timer. */
export function startJobs(deps: AppDeps): void {
  jobService(deps);
}

/** The policy decision as a start request (git stages checked); the confinement comes from the server's recorded policy (JobsContext.policy). */
export async function startRequest(deps: AppDeps, args: StartArgs): Promise<StartRequest> {
  const decision = decideOrThrow(deps, args);
  const cwd = args.cwd ?? deps.runtime.workspaceRoots[0]!;
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new AppError('not_found', `cwd ${cwd} is not an existing directory`);
  requireConfinement(deps);
  await checkGitStages(deps, decision.stages, cwd);
  return {
    name: args.name ?? null,
    command: typeof args.command === 'string' ? args.command : args.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' '),
    request: { command: args.command, shell: false },
    stages: decision.stages,
    cwd,
    env: commandEnv(deps, args.env),
    network: decision.network,
    timeoutMs: args.timeout_ms ?? 0,
    stdinOpen: args.stdin_open ?? false,
  };
}

/** Renders a job as a tool result; a failed/cancelled/lost job is data, not an error. */
export function jobOutcome(deps: AppDeps, job: Job): ToolOutcome {
  const view = viewJob(deps.runtime.stateDir, job, deps.now(), serverPolicy(deps).fingerprint);
  const bad = isEnded(job.status) && job.status !== 'succeeded';
  const cls = job.status === 'timed_out' ? 'timeout' : job.status === 'cancelled' ? 'cancelled' : isLimitNote(view.note) ? 'too_large' : 'exec_failed';
  const why = job.status === 'failed' ? (view.signal ? `killed by signal ${view.signal}` : `exited with code ${view.exit_code}`) : `job ${job.status}`;
  return { data: { ...view }, failure: bad ? { error: view.note ? `${why}: ${view.note}` : why, errorClass: cls } : undefined };
}

/** Reads a window of a job log (raw: the envelope, or the resource, redacts it); only of a job bound to this server's policy (job.other_policy). */
export function readOutput(deps: AppDeps, args: OutputArgs, tailByDefault = false): ToolOutcome {
  const svc = jobService(deps);
  const job = svc.get(args.job_id);
  // Another policy's output is its work's content (its roots, its files): job_status still reports on the job.
  requireJobPolicy(job, svc.ctx.policy.fingerprint, 'read the output of');
  const w = readJobLog(deps.runtime.stateDir, job.id, args.stream, { offset: args.offset, maxBytes: args.max_bytes, tailLines: args.tail_lines, tailByDefault });
  const eof = isEnded(job.status) && w.next_offset >= w.total_bytes;
  const capped = args.stream === 'stderr' ? job.counts.stderrDropped > 0 : args.stream === 'stdout' ? job.counts.stdoutDropped > 0 : job.counts.stdoutDropped + job.counts.stderrDropped > 0;
  const data = w.data;
  const more = w.next_offset < w.total_bytes ? `; more from offset ${w.next_offset}` : eof ? '; end of log' : '; job still running';
  const text = `${data}\n[${args.stream} bytes ${w.offset}-${w.next_offset} of ${w.total_bytes}${more}${capped ? cutNote(job) : ''}]`;
  return { data: { data, offset: w.offset, next_offset: w.next_offset, eof, total_bytes: w.total_bytes, capped }, truncated: w.next_offset < w.total_bytes, text };
}

/** Why a log lost bytes: its own cap, or a limit that stopped the job (the note names it). */
function cutNote(job: Job): string {
  return isLimitNote(job.note) ? '; log cut: a limit stopped the job (see its note in job_status)' : '; log capped (jobs.max_log_bytes)';
}

/** A page of jobs, newest first. */
export function listJobs(deps: AppDeps, args: ListArgs): ToolOutcome {
  const svc = jobService(deps);
  const page = svc.repo.list({ status: args.status, limit: args.limit, before: args.cursor ? Number(args.cursor) : undefined });
  const jobs = page.jobs.map((j) => viewJob(deps.runtime.stateDir, j, deps.now(), svc.ctx.policy.fingerprint));
  return { data: { jobs, next_cursor: page.next !== undefined ? String(page.next) : null } };
}

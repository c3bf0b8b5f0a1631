// What a caller does to a job: wait for it, cancel it, feed its stdin.
import { existsSync, writeFileSync } from 'node:fs';
import { AppError, invalidParams } from '../../shared/errors.js';
import { writeJsonAtomic } from './atomic-write.js';
import { writeToFifo } from './fifo-write.js';
import { jobPaths } from './paths.js';
import { isSameProcess } from './proc-identity.js';
import type { JobService } from './service.js';
import { isEnded, zeroCounts, type Job } from './types.js';

const POLL_MS = 100;
const INPUT_TIMEOUT_MS = 10_000;

/** Polls until the job has ended, the wait runs out, or `signal` aborts; returns the latest state. */
export async function waitForJob(svc: JobService, id: string, timeoutMs: number, signal?: AbortSignal): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = svc.get(id);
    if (isEnded(job.status) || Date.now() >= deadline || signal?.aborted) return job;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
  }
}

/** Cancels a job: a queued one ends at once; a running one gets TERM to its whole tree, KILL after the grace. */
export async function cancelJob(svc: JobService, id: string, graceMs: number): Promise<Job> {
  let job = svc.get(id);
  if (job.status === 'queued') {
    const end = { status: 'cancelled' as const, exitCode: null, signal: null, endedAt: svc.ctx.now().toISOString(), counts: zeroCounts(), note: 'cancelled before it started' };
    if (svc.repo.finish(id, end)) return svc.get(id);
    job = svc.get(id); // it was claimed meanwhile: cancel the running job
  }
  if (job.status !== 'running') return job;
  const paths = jobPaths(svc.ctx.stateDir, id);
  writeJsonAtomic(paths.cancel, { grace_ms: graceMs, requested_at: svc.ctx.now().toISOString() });
  if (job.supPid && isSameProcess(job.supPid, job.supStart)) {
    try {
      process.kill(job.supPid, 'SIGTERM');
    } catch {
      /* it ended meanwhile; reconcile records it */
    }
  }
  return waitForJob(svc, id, Math.min(graceMs + 5000, 30_000));
}

/** Writes to the stdin of a running job started with stdin_open; `close` ends its stdin afterwards. */
export async function sendJobInput(svc: JobService, id: string, data: string, close: boolean): Promise<{ bytes: number; closed: boolean }> {
  const job = svc.get(id);
  if (!job.stdinOpen) throw invalidParams(`job ${id} was not started with stdin_open`, 'start the job with stdin_open: true to send it input');
  if (job.status !== 'running') {
    throw new AppError(job.status === 'queued' ? 'busy' : 'invalid_params', `job ${id} is ${job.status}; input can only be sent to a running job`, {
      hint: job.status === 'queued' ? 'wait until job_status says running' : undefined,
    });
  }
  const paths = jobPaths(svc.ctx.stateDir, id);
  if (existsSync(paths.stdinClose)) throw invalidParams(`the stdin of job ${id} is already closed`);
  const bytes = data.length > 0 ? await writeToFifo(paths.stdin, Buffer.from(data), INPUT_TIMEOUT_MS) : 0;
  if (close) writeFileSync(paths.stdinClose, '', { mode: 0o600 });
  return { bytes, closed: close };
}

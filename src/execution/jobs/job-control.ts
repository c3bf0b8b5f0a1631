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
/** job_input waits this long for a command that reads nothing, then answers `busy`. */
const INPUT_STALL_MS = 500;
/** …and at most this long in all, even while the command reads slowly. */
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

/**
 * Writes to the stdin of a running job started with stdin_open; `close` ends its stdin afterwards.
 * Backpressured: when the command does not read, this answers `busy` with `bytes_written` (the
 * bytes of `data`, as UTF-8, that were accepted — always whole characters) and does not close.
 */
export async function sendJobInput(svc: JobService, id: string, data: string, close: boolean): Promise<{ bytes_written: number; closed: boolean }> {
  const job = svc.get(id);
  if (!job.stdinOpen) throw invalidParams(`job ${id} was not started with stdin_open`, 'start the job with stdin_open: true to send it input');
  if (job.status !== 'running') {
    throw new AppError(job.status === 'queued' ? 'busy' : 'invalid_params', `job ${id} is ${job.status}; input can only be sent to a running job`, {
      hint: job.status === 'queued' ? 'wait until job_status says running' : undefined,
    });
  }
  const paths = jobPaths(svc.ctx.stateDir, id);
  if (existsSync(paths.stdinClose)) throw invalidParams(`the stdin of job ${id} is already closed`);
  const bytes = Buffer.from(data);
  const w = bytes.length > 0 ? await writeToFifo(paths.stdin, bytes, { stallMs: INPUT_STALL_MS, timeoutMs: INPUT_TIMEOUT_MS }) : { written: 0, complete: true };
  if (!w.complete) throw inputBusy(id, w.written, bytes.length, close);
  if (close) writeFileSync(paths.stdinClose, '', { mode: 0o600 });
  return { bytes_written: w.written, closed: close };
}

/** The `busy` answer of job_input: how much of `data` was accepted, so the rest can be resent. */
export function inputBusy(id: string, written: number, total: number, close: boolean): AppError {
  return new AppError('busy', `job ${id} is not reading its input: ${written} of ${total} bytes were accepted${close ? ' and stdin was not closed' : ''}`, {
    hint: `resend the rest of data (after its first ${written} bytes, a character boundary) once the command reads again${close ? ', with close: true' : ''}; job_output shows what it is doing`,
    details: { bytes_written: written, bytes_total: total },
  });
}

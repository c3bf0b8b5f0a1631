// The job as callers see it (job_status, job_list, CLI): snake_case fields, live byte counts.
import { statSync } from 'node:fs';
import { policyWaitNote } from './job-policy.js';
import { jobPaths } from './paths.js';
import type { Job, LogCounts } from './types.js';

export interface JobView {
  job_id: string;
  name: string | null;
  status: Job['status'];
  exit_code: number | null;
  signal: string | null;
  pid: number | null;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  stdout_bytes: number;
  stderr_bytes: number;
  stdout_dropped_bytes: number;
  stderr_dropped_bytes: number;
  command: string;
  note?: string;
}

/** Renders a job; a running job's counts come from its log sizes (fresher than the row). A viewer of another policy is told what a queued job waits for. */
export function viewJob(stateDir: string, job: Job, now: Date, viewerFp?: string): JobView {
  const note = job.note ?? policyWaitNote(job, viewerFp);
  const counts = job.status === 'running' ? liveCounts(stateDir, job.id, job.counts) : job.counts;
  const started = job.status === 'queued' ? null : job.startedAt;
  const ended = job.status === 'queued' || job.status === 'running' ? null : job.endedAt;
  const endMs = ended ? Date.parse(ended) : now.getTime();
  return {
    job_id: job.id,
    name: job.name,
    status: job.status,
    exit_code: 'exitCode' in job ? job.exitCode : null,
    signal: 'signal' in job ? job.signal : null,
    pid: job.status === 'running' ? job.pid : null,
    started_at: started,
    ended_at: ended,
    duration_ms: started ? Math.max(0, endMs - Date.parse(started)) : null,
    stdout_bytes: counts.stdoutBytes,
    stderr_bytes: counts.stderrBytes,
    stdout_dropped_bytes: counts.stdoutDropped,
    stderr_dropped_bytes: counts.stderrDropped,
    command: job.command,
    ...(note ? { note } : {}),
  };
}

function liveCounts(stateDir: string, id: string, c: LogCounts): LogCounts {
  const paths = jobPaths(stateDir, id);
  const size = (s: 'stdout' | 'stderr') => {
    try {
      return statSync(paths.log(s)).size;
    } catch {
      return 0;
    }
  };
  return {
    ...c,
    stdoutBytes: c.stdoutDropped > 0 ? c.stdoutBytes : Math.max(c.stdoutBytes, size('stdout')),
    stderrBytes: c.stderrDropped > 0 ? c.stderrBytes : Math.max(c.stderrBytes, size('stderr')),
  };
}

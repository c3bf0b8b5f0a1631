// The job model: a status union whose variants carry their own data, the spec handed to the
// supervisor, and the end record it writes.
import type { Stage } from '../../policy/types.js';
import type { HostCapabilities } from '../../sandbox/capabilities.js';
import type { CgroupLimits } from '../../sandbox/cgroup.js';
import type { SandboxOptions } from '../../sandbox/plan.js';
import type { LogBudgetLimits } from './log-budget.js';

export type EndStatus = 'succeeded' | 'failed' | 'cancelled' | 'timed_out' | 'lost';
export type JobStatusName = 'queued' | 'running' | EndStatus;
export const JOB_STATUSES: readonly JobStatusName[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'lost'];

/** Byte counts per stream: what the command wrote, and how much of it was dropped past the cap. */
export interface LogCounts {
  stdoutBytes: number;
  stderrBytes: number;
  stdoutDropped: number;
  stderrDropped: number;
}

/** What every job has, whatever its state. */
export interface JobBase {
  id: string;
  name: string | null;
  command: string;
  createdAt: string;
  stdinOpen: boolean;
  counts: LogCounts;
  note: string | null;
}

/** A queued job has no process and no times; a running one has a supervisor; an ended one has an end. */
export type JobState =
  | { status: 'queued' }
  | { status: 'running'; startedAt: string; pid: number | null; pidStart: string | null; supPid: number | null; supStart: string | null }
  | { status: EndStatus; startedAt: string | null; endedAt: string; exitCode: number | null; signal: string | null };

export type Job = JobBase & JobState;

/** The end of a job, as the supervisor (or reconcile) records it. */
export interface JobEnd {
  status: EndStatus;
  exitCode: number | null;
  signal: string | null;
  endedAt: string;
  counts: LogCounts;
  note: string | null;
}

/** spec.json: everything the supervisor needs to run the job without the server. */
export interface JobSpec {
  id: string;
  stages: Stage[];
  cwd: string;
  /** The already filtered child environment (no server secrets). */
  env: Record<string, string>;
  sandbox: SandboxOptions;
  caps: HostCapabilities;
  cgroupLimits: CgroupLimits;
  /** 0 = no timeout. */
  timeoutMs: number;
  stdinOpen: boolean;
  maxLogBytes: number;
  /** The state directory's job-log budget and free-disk floor (absent in specs written before them). */
  logBudget?: LogBudgetLimits;
  /** Used by the supervisor to start the next queued job when it ends. */
  maxRunning: number;
  stateDir: string;
  dbPath: string;
}

/** Whether a status is final. */
export function isEnded(status: JobStatusName): status is EndStatus {
  return status !== 'queued' && status !== 'running';
}

/** Zero counts. */
export function zeroCounts(): LogCounts {
  return { stdoutBytes: 0, stderrBytes: 0, stdoutDropped: 0, stderrDropped: 0 };
}

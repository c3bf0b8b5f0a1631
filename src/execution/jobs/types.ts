// The job model: a status union whose variants carry their own data, the spec handed to the
// supervisor, and the end record it writes.
import type { Stage } from '../../policy/types.js';
import type { HostCapabilities } from '../../sandbox/capabilities.js';
import type { PolicyRecord } from '../../config/policy-record.js';
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
  /** The policy the job is bound to: canonical record (JSON) and fingerprint; null for rows older than the record. */
  policy: string | null;
  policyFp: string | null;
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

/**
 * spec.json: the request part of a job (what to run, where). It lives in the state directory, so
 * the supervisor trusts none of its confinement: profile, roots, sandbox flags, limits and host
 * facts come from its launcher (SupervisorContext), and a spec whose policyFp differs is refused.
 */
export interface JobSpec {
  id: string;
  /** Fingerprint of the policy the job was admitted under (equal to its row's policy_fp). */
  policyFp: string;
  /** The command as requested: the supervisor decides it again under the recorded policy (redecide-spec.ts). */
  request: JobRequest;
  /** The stages its server's decision produced; the supervisor runs its own decision's, and refuses a spec where they differ. */
  stages: Stage[];
  cwd: string;
  /** The already filtered child environment (no server secrets). */
  env: Record<string, string>;
  /** Whether the decision granted network (the supervisor still requires the policy to allow it). */
  network: boolean;
  /** 0 = no timeout. */
  timeoutMs: number;
  stdinOpen: boolean;
}

/** The request part of a job's command, as its server decided it. */
export interface JobRequest {
  command: string | string[];
  shell: boolean;
}

/**
 * What a launcher (a server, or a supervisor starting the next queued job) hands a supervisor through
 * its environment: never argv (ps shows it to every user), never a file in the state directory.
 */
export interface LaunchContext {
  stateDir: string;
  dbPath: string;
  policy: PolicyRecord;
  policyFp: string;
  caps: HostCapabilities;
  maxLogBytes: number;
  /** The state directory's job-log budget and free-disk floor. */
  logBudget: LogBudgetLimits;
  /** Used by the supervisor to start the next queued job of the same policy when it ends. */
  maxRunning: number;
  /** The launching server's HOME (it passes its own into jobs' environments); absent when it had none. */
  serverHome?: string;
}

/** The launch context of one job, with the sha256 its row recorded for spec.json. */
export type SupervisorContext = LaunchContext & { jobId: string; specSha256: string | null };

/** Whether a status is final. */
export function isEnded(status: JobStatusName): status is EndStatus {
  return status !== 'queued' && status !== 'running';
}

/** Zero counts. */
export function zeroCounts(): LogCounts {
  return { stdoutBytes: 0, stderrBytes: 0, stdoutDropped: 0, stderrDropped: 0 };
}

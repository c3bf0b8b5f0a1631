// SQL for the jobs table: every state transition of a job lives here.
import type { Db } from './db.js';
import type { EndStatus, Job, JobEnd, JobStatusName, LogCounts } from '../execution/jobs/types.js';

interface Row {
  rowid: number;
  id: string;
  name: string | null;
  command: string;
  status: JobStatusName;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  exit_code: number | null;
  signal: string | null;
  pid: number | null;
  pid_start: string | null;
  sup_pid: number | null;
  sup_start: string | null;
  stdout_bytes: number;
  stderr_bytes: number;
  stdout_dropped: number;
  stderr_dropped: number;
  stdin_open: number;
  note: string | null;
  policy: string | null;
  policy_fp: string | null;
}

export interface NewJob {
  id: string;
  name: string | null;
  command: string;
  createdAt: string;
  stdinOpen: boolean;
  /** The canonical policy record (JSON) and its fingerprint. */
  policy: string;
  policyFp: string;
  /** sha256 (hex) of spec.json as written. */
  specSha256: string;
}

const COLS = 'rowid, *';

/** Turns a row into the Job union: each state carries only its own fields. */
function toJob(r: Row): Job {
  const counts: LogCounts = { stdoutBytes: r.stdout_bytes, stderrBytes: r.stderr_bytes, stdoutDropped: r.stdout_dropped, stderrDropped: r.stderr_dropped };
  const base = { id: r.id, name: r.name, command: r.command, createdAt: r.created_at, stdinOpen: r.stdin_open === 1, counts, note: r.note, policy: r.policy, policyFp: r.policy_fp };
  if (r.status === 'queued') return { ...base, status: 'queued' };
  if (r.status === 'running') {
    return { ...base, status: 'running', startedAt: r.started_at ?? r.created_at, pid: r.pid, pidStart: r.pid_start, supPid: r.sup_pid, supStart: r.sup_start };
  }
  return { ...base, status: r.status, startedAt: r.started_at, endedAt: r.ended_at ?? r.created_at, exitCode: r.exit_code, signal: r.signal };
}

/** Creates the jobs repository over an open database. */
export function createJobsRepo(db: Db) {
  const get = db.prepare<[string], Row>(`SELECT ${COLS} FROM jobs WHERE id = ?`);
  const countBy = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM jobs WHERE status = ?');
  // Only a claimer bound to the same policy takes a queued job (the fingerprint is part of the compare-and-swap).
  const oldestQueued = db.prepare<[string], { id: string }>("SELECT id FROM jobs WHERE status = 'queued' AND policy_fp = ? ORDER BY rowid LIMIT 1");
  const claim = db.prepare("UPDATE jobs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued' AND policy_fp = ?");
  const count = (s: JobStatusName) => countBy.get(s)!.n;
  return {
    get: (id: string): Job | undefined => {
      const r = get.get(id);
      return r ? toJob(r) : undefined;
    },
    /** Inserts a queued job unless the queue is full; the check and insert are one IMMEDIATE transaction. */
    insertQueued: db.transaction((job: NewJob, limits: { maxRunning: number; maxQueued: number }): 'ok' | 'busy' => {
      const queued = count('queued');
      const wouldWait = count('running') + queued >= limits.maxRunning;
      if (wouldWait && queued >= limits.maxQueued) return 'busy';
      db.prepare(`INSERT INTO jobs (id, name, command, status, created_at, stdin_open, policy, policy_fp, spec_sha256)
        VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?)`).run(
        job.id, job.name, job.command, job.createdAt, job.stdinOpen ? 1 : 0, job.policy, job.policyFp, job.specSha256,
      );
      return 'ok';
    }).immediate,
    /** Claims the oldest queued job of policy `policyFp` if a slot is free (compare-and-swap inside BEGIN IMMEDIATE). */
    claimNext: db.transaction((c: { maxRunning: number; now: string; policyFp: string }): string | undefined => {
      if (count('running') >= c.maxRunning) return undefined;
      const next = oldestQueued.get(c.policyFp);
      if (!next) return undefined;
      return claim.run(c.now, next.id, c.policyFp).changes === 1 ? next.id : undefined;
    }).immediate,
    /** The sha256 of the job's spec.json as its server wrote it (null for rows older than the record). */
    specSha256(id: string): string | null {
      return db.prepare<[string], { spec_sha256: string | null }>('SELECT spec_sha256 FROM jobs WHERE id = ?').get(id)?.spec_sha256 ?? null;
    },
    setSupervisor(id: string, supPid: number, supStart: string | null): void {
      db.prepare("UPDATE jobs SET sup_pid = ?, sup_start = ? WHERE id = ? AND status = 'running'").run(supPid, supStart, id);
    },
    setPid(id: string, pid: number | null, pidStart: string | null): void {
      db.prepare("UPDATE jobs SET pid = ?, pid_start = ? WHERE id = ? AND status = 'running'").run(pid, pidStart, id);
    },
    setCounts(id: string, c: LogCounts): void {
      db.prepare("UPDATE jobs SET stdout_bytes = ?, stderr_bytes = ?, stdout_dropped = ?, stderr_dropped = ? WHERE id = ? AND status = 'running'").run(
        c.stdoutBytes, c.stderrBytes, c.stdoutDropped, c.stderrDropped, id,
      );
    },
    /** Records the end once: only a queued or running job can end. Returns whether this call did it. */
    finish(id: string, end: JobEnd): boolean {
      const c = end.counts;
      return (
        db
          .prepare(
            `UPDATE jobs SET status = ?, ended_at = ?, exit_code = ?, signal = ?, note = ?, stdout_bytes = ?, stderr_bytes = ?,
             stdout_dropped = ?, stderr_dropped = ? WHERE id = ? AND status IN ('queued', 'running')`,
          )
          .run(end.status, end.endedAt, end.exitCode, end.signal, end.note, c.stdoutBytes, c.stderrBytes, c.stdoutDropped, c.stderrDropped, id).changes === 1
      );
    },
    active(): Job[] {
      return db.prepare<[], Row>(`SELECT ${COLS} FROM jobs WHERE status IN ('running', 'queued') ORDER BY rowid`).all().map(toJob);
    },
    /** Newest first; the cursor is the rowid of the last job of the previous page. */
    list(opts: { status?: JobStatusName; limit: number; before?: number }): { jobs: Job[]; next?: number } {
      const rows = db
        .prepare<[string | null, string | null, number | null, number | null, number], Row>(
          `SELECT ${COLS} FROM jobs WHERE (? IS NULL OR status = ?) AND (? IS NULL OR rowid < ?) ORDER BY rowid DESC LIMIT ?`,
        )
        .all(opts.status ?? null, opts.status ?? null, opts.before ?? null, opts.before ?? null, opts.limit + 1);
      const more = rows.length > opts.limit;
      const page = rows.slice(0, opts.limit);
      return { jobs: page.map(toJob), next: more ? page[page.length - 1]!.rowid : undefined };
    },
    /** Ended jobs whose end is older than `before` (ISO time). */
    endedBefore(before: string): string[] {
      const ended: EndStatus[] = ['succeeded', 'failed', 'cancelled', 'timed_out', 'lost'];
      return db
        .prepare<[string], { id: string }>(`SELECT id FROM jobs WHERE ended_at < ? AND status IN (${ended.map((s) => `'${s}'`).join(',')})`)
        .all(before)
        .map((r) => r.id);
    },
    /** Deletes an ended job's row (never a queued or running one). */
    deleteEnded(id: string): void {
      db.prepare("DELETE FROM jobs WHERE id = ? AND status NOT IN ('queued', 'running')").run(id);
    },
    countByStatus: count,
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;

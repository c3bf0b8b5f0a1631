// The total job-log budget of a state directory (jobs.max_total_log_bytes) and the free-disk floor
// (jobs.min_free_disk_bytes), as one job's supervisor spends them.
//
// Design. Several supervisors — separate processes, possibly started by several servers — write
// logs into one state directory at once. Each keeps a local allowance and refills it in chunks
// (1/64 of the budget, from 64 KiB to 64 MiB) from a ledger in the shared SQLite store (table
// job_log_budget, store/log-budget-repo.ts): one BEGIN IMMEDIATE transaction reads the sum of every
// job's reservation and grants at most what is left, so the grants of all processes together never
// exceed the budget. A write costs a subtraction; the database and statfs are touched once per
// chunk, never per write, and the job directories are never scanned. When a job ends its row is
// lowered to the bytes it stored; pruning a job deletes its row (ON DELETE CASCADE), so the ledger
// cannot drift from the jobs that exist (a job whose supervisor vanished keeps its last
// reservation, never less than it wrote, until it is pruned). Before each refill the filesystem's
// free space (statfs) must stay above the floor after the chunk (concurrent jobs may each take one
// chunk past it: the floor is undershot by at most one chunk per running job).
// Inside the budget: stdout.log, stderr.log and combined.idx. Outside (the slack): the one-line
// marker at the end of a cut log (under 300 bytes per stream) and the small JSON files.
// A refill that cannot cover a write stops the job (onExhausted) and every later byte is dropped.
// A ledger that cannot be read fails closed the same way, with a note saying why.
import { statfsSync } from 'node:fs';
import { openDb, type Db } from '../../store/db.js';
import { createLogBudgetRepo, type LogBudgetRepo } from '../../store/log-budget-repo.js';

export interface LogBudgetLimits {
  maxTotalBytes: number;
  minFreeDiskBytes: number;
}

/** Used for a spec written before these limits existed (the config defaults). */
export const DEFAULT_LOG_BUDGET: Readonly<LogBudgetLimits> = Object.freeze({ maxTotalBytes: 4 * 1024 ** 3, minFreeDiskBytes: 1024 ** 3 });

/** Notes of jobs stopped by a limit start with this (job_status then answers error_class too_large). */
export const LIMIT_NOTE_PREFIX = 'too_large: ';

/** Why a budget stopped its job: the note for job_status and the words for the log marker. */
export interface BudgetStop {
  note: string;
  marker: string;
}

export interface LogBudgetOptions {
  jobId: string;
  stateDir: string;
  dbPath: string;
  limits: LogBudgetLimits;
  /** Called once, when a write could not be paid for. */
  onExhausted: (stop: BudgetStop) => void;
}

/** Bytes available to unprivileged writers on the filesystem holding `dir`. */
export function freeDiskBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/** Whether a job note says a limit stopped the job. */
export function isLimitNote(note: string | null | undefined): boolean {
  return typeof note === 'string' && note.startsWith(LIMIT_NOTE_PREFIX);
}

/** One supervisor's allowance from the shared ledger. */
export class LogBudget {
  /** Set once a write could not be paid for. */
  stopped: BudgetStop | null = null;
  private granted = 0;
  private used = 0;
  private db?: Db;
  private repo?: LogBudgetRepo;

  constructor(private readonly o: LogBudgetOptions) {}

  /** Pays for up to `n` bytes; returns how many may be written (fewer only once the job is stopped). */
  take(n: number): number {
    if (n <= 0) return 0;
    const short = n - (this.granted - this.used);
    if (short > 0 && !this.stopped) this.refill(short);
    const ok = Math.min(n, this.granted - this.used);
    this.used += ok;
    return ok;
  }

  /** Lowers the ledger to the bytes really stored and closes the store. */
  settle(storedBytes: number): void {
    try {
      this.repo?.settle(this.o.jobId, Math.min(storedBytes, this.granted));
    } finally {
      this.db?.close();
      this.db = this.repo = undefined;
    }
  }

  private refill(short: number): void {
    const { maxTotalBytes: max, minFreeDiskBytes: floor } = this.o.limits;
    const want = Math.max(short, Math.min(64 * 1024 ** 2, Math.max(64 * 1024, Math.floor(max / 64))));
    let diskRoom: number;
    let got: number;
    try {
      diskRoom = freeDiskBytes(this.o.stateDir) - floor;
      const ask = Math.min(want, Math.max(0, diskRoom));
      got = ask > 0 ? this.ledger().reserve(this.o.jobId, ask, max) : 0;
    } catch (err) {
      return this.stop({ note: `stopped: the job-log budget could not be checked (${(err as Error).message})`, marker: 'stopped: the job-log budget could not be checked' });
    }
    this.granted += got;
    if (got >= short) return;
    if (diskRoom < short) {
      return this.stop({
        note: `${LIMIT_NOTE_PREFIX}stopped: free space on the state directory's filesystem reached the jobs.min_free_disk_bytes floor (${floor} bytes); free disk space or remove finished jobs, or lower jobs.min_free_disk_bytes`,
        marker: `stopped: free disk reached jobs.min_free_disk_bytes (${floor} bytes); the job was stopped`,
      });
    }
    this.stop({
      note: `${LIMIT_NOTE_PREFIX}stopped: the job logs of this state directory reached jobs.max_total_log_bytes (${max} bytes); cancel or remove jobs you no longer need, or raise jobs.max_total_log_bytes`,
      marker: `stopped: all job logs reached jobs.max_total_log_bytes (${max} bytes); the job was stopped`,
    });
  }

  private stop(s: BudgetStop): void {
    this.stopped = s;
    this.o.onExhausted(s);
  }

  private ledger(): LogBudgetRepo {
    if (!this.repo) {
      this.db = openDb(this.o.dbPath);
      this.repo = createLogBudgetRepo(this.db);
    }
    return this.repo;
  }
}

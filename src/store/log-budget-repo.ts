// SQL for the job-log budget: how many bytes of log space each job holds, reserved under the
// database's write lock so that concurrent supervisors and servers never hand out more than the budget.
import type { Db } from './db.js';

export interface LogBudgetRepo {
  /** Bytes held by every job of this state directory (reserved by running jobs, stored by ended ones). */
  total(): number;
  /** Grants up to `want` bytes to job `jobId` without taking the total over `max`; returns the grant (0 when full). */
  reserve(jobId: string, want: number, max: number): number;
  /** Lowers what job `jobId` holds to the bytes it really stored (called when it ends; never raises it). */
  settle(jobId: string, bytes: number): void;
}

/** Creates the budget repository over an open database. */
export function createLogBudgetRepo(db: Db): LogBudgetRepo {
  const sum = db.prepare<[], { n: number }>('SELECT coalesce(sum(reserved), 0) AS n FROM job_log_budget');
  const add = db.prepare(
    'INSERT INTO job_log_budget (job_id, reserved) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET reserved = reserved + excluded.reserved',
  );
  const set = db.prepare('UPDATE job_log_budget SET reserved = min(reserved, ?) WHERE job_id = ?');
  const total = () => sum.get()!.n;
  // The read of the total and the grant are one IMMEDIATE transaction: a compare-and-swap on the sum.
  const reserve = db.transaction((jobId: string, want: number, max: number): number => {
    const grant = Math.max(0, Math.min(want, max - total()));
    if (grant > 0) add.run(jobId, grant);
    return grant;
  }).immediate;
  return {
    total,
    reserve,
    settle(jobId, bytes) {
      set.run(Math.max(0, Math.floor(bytes)), jobId);
    },
  };
}

// SQL for the task_steps table: inserts, the claim (CAS inside BEGIN IMMEDIATE), leases and resets.
import type { Db } from './db.js';
import type { StepOutcome, StepPlan, StepRecord, StepSpec, StepStatus } from '../execution/scheduler/types.js';

interface Row {
  id: string; task_id: string; step_number: number; action: string; parameters: string; save_as: string | null;
  run_if: StepRecord['runIf']; on_failure: StepRecord['onFailure']; mode: StepRecord['mode']; timeout_ms: number | null;
  status: StepStatus; result: string | null; error: string | null; note: string | null; attempts: number;
  started_at: string | null; ended_at: string | null; job_id: string | null; rerun_safe: number | null;
  claim_owner: string | null; lease_until: number | null; plan: string | null;
}

function toStep(r: Row): StepRecord {
  return {
    id: r.id, taskId: r.task_id, stepNumber: r.step_number, action: r.action, parameters: JSON.parse(r.parameters) as Record<string, unknown>,
    saveAs: r.save_as, runIf: r.run_if, onFailure: r.on_failure, mode: r.mode, timeoutMs: r.timeout_ms, status: r.status,
    result: r.result === null ? null : (JSON.parse(r.result) as unknown), error: r.error, note: r.note, attempts: r.attempts,
    startedAt: r.started_at, endedAt: r.ended_at, jobId: r.job_id, rerunSafe: r.rerun_safe === null ? null : r.rerun_safe === 1,
    claimOwner: r.claim_owner, leaseUntil: r.lease_until, plan: r.plan === null ? null : (JSON.parse(r.plan) as StepPlan),
  };
}

// The next step of each running task is its lowest pending-or-executing step; it is claimable
// only when that step is pending (a task never has two steps executing). Least recently touched task first.
// CROSS JOIN keeps tasks as the outer loop: the planner otherwise scans every pending step (100× slower).
// Only tasks bound to the claimer's policy (same fingerprint) are considered.
const NEXT_SQL = `SELECT s.*, t.dry_run AS task_dry_run FROM tasks t CROSS JOIN task_steps s
  WHERE t.status = 'running' AND t.policy_fp = @fp AND s.task_id = t.id AND s.status = 'pending' AND s.step_number =
  (SELECT p.step_number FROM task_steps p WHERE p.task_id = t.id AND p.status IN ('pending', 'executing') ORDER BY p.step_number LIMIT 1)
  ORDER BY t.last_updated, t.id LIMIT 1`;

const OF_POLICY = 'AND task_id IN (SELECT id FROM tasks WHERE policy_fp = ?)';

export interface ClaimInput {
  owner: string;
  /** The claimer's policy fingerprint: only steps of tasks bound to it are claimed. */
  policyFp: string;
  leaseUntil: number;
  now: string;
  /** Whether the step may run again if its runner dies mid-step (scheduler crash rule). */
  rerunSafe: (step: StepRecord, dryRun: boolean) => boolean;
}

/** Creates the task steps repository over an open database. */
export function createTaskStepsRepo(db: Db) {
  const next = db.prepare<[{ fp: string }], Row & { task_dry_run: number }>(NEXT_SQL);
  const claim = db.prepare(`UPDATE task_steps SET status = 'executing', claim_owner = ?, lease_until = ?, started_at = ?, ended_at = NULL,
    attempts = attempts + 1, result = NULL, error = NULL, note = NULL, rerun_safe = ? WHERE id = ? AND status = 'pending'
    AND task_id IN (SELECT id FROM tasks WHERE policy_fp = ?)`);
  // The claim records whether the step may re-run after a crash, so the decision is durable before anything runs.
  const claimTx = db.transaction((c: ClaimInput): StepRecord | undefined => {
    const r = next.get({ fp: c.policyFp });
    if (!r) return undefined;
    const safe = c.rerunSafe(toStep(r), r.task_dry_run === 1);
    if (claim.run(c.owner, c.leaseUntil, c.now, safe ? 1 : 0, r.id, c.policyFp).changes !== 1) return undefined;
    touchTask.run(r.step_number, c.now, r.task_id);
    return toStep(byId.get(r.id)!);
  });
  const touchTask = db.prepare('UPDATE tasks SET current_step = ?, last_updated = ? WHERE id = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM task_steps WHERE id = ?');
  const owned = "WHERE id = ? AND claim_owner IS ? AND status = 'executing'";
  return {
    insert(taskId: string, steps: StepSpec[]): void {
      const ins = db.prepare(`INSERT INTO task_steps (id, task_id, step_number, action, parameters, save_as, run_if, on_failure, mode, timeout_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      steps.forEach((s, i) => ins.run(`${taskId}.${i + 1}`, taskId, i + 1, s.action, JSON.stringify(s.parameters), s.save_as ?? null,
        s.run_if ?? 'always', s.on_failure ?? 'pause', s.mode ?? 'sync', s.timeout_ms ?? null));
    },
    get(id: string): StepRecord | undefined {
      const r = byId.get(id);
      return r ? toStep(r) : undefined;
    },
    forTask(taskId: string): StepRecord[] {
      return db.prepare<[string], Row>('SELECT * FROM task_steps WHERE task_id = ? ORDER BY step_number').all(taskId).map(toStep);
    },
    /**
     * Claims the next runnable step (BEGIN IMMEDIATE + compare-and-swap). A plain read first keeps
     * idle runners off the write lock: WAL readers never block the writer.
     */
    claimNext(c: ClaimInput): StepRecord | undefined {
      return next.get({ fp: c.policyFp }) ? claimTx.immediate(c) : undefined;
    },
    /** Extends the lease; false when this owner no longer holds the step. */
    renew(id: string, owner: string, leaseUntil: number): boolean {
      return db.prepare(`UPDATE task_steps SET lease_until = ? ${owned}`).run(leaseUntil, id, owner).changes === 1;
    },
    setJobId(id: string, owner: string, jobId: string): boolean {
      return db.prepare(`UPDATE task_steps SET job_id = ? ${owned}`).run(jobId, id, owner).changes === 1;
    },
    /** Records how an owned step ended; false when the claim was lost meanwhile. */
    finish(id: string, owner: string | null, o: StepOutcome & { endedAt: string }): boolean {
      const sql = `UPDATE task_steps SET status = ?, result = ?, error = ?, note = ?, ended_at = ?, claim_owner = NULL, lease_until = NULL ${owned}`;
      const result = o.result === null || o.result === undefined ? null : JSON.stringify(o.result);
      return db.prepare(sql).run(o.status, result, o.error, o.note, o.endedAt, id, owner).changes === 1;
    },
    /** Puts an executing step back to pending (CAS on its current owner and lease). */
    release(id: string, owner: string | null, note: string | null): boolean {
      const sql = `UPDATE task_steps SET status = 'pending', claim_owner = NULL, lease_until = NULL, note = ?
        WHERE id = ? AND claim_owner IS ? AND status = 'executing'`;
      return db.prepare(sql).run(note, id, owner).changes === 1;
    },
    /** Moves an abandoned executing step to a new owner (CAS on the old owner). */
    takeOver(id: string, oldOwner: string | null, owner: string, leaseUntil: number): boolean {
      const sql = "UPDATE task_steps SET claim_owner = ?, lease_until = ? WHERE id = ? AND claim_owner IS ? AND status = 'executing'";
      return db.prepare(sql).run(owner, leaseUntil, id, oldOwner).changes === 1;
    },
    /** Executing steps of tasks bound to policy `fp` whose lease ran out (their runner died or stopped). */
    expired(nowMs: number, fp: string): StepRecord[] {
      const sql = `SELECT * FROM task_steps WHERE status = 'executing' AND coalesce(lease_until, 0) < ? ${OF_POLICY}`;
      return db.prepare<[number, string], Row>(sql).all(nowMs, fp).map(toStep);
    },
    /** Every executing step of tasks bound to policy `fp`, with its owner (to spot owners that died on this host). */
    executingOwners(fp: string): Array<{ id: string; owner: string | null }> {
      const sql = `SELECT id, claim_owner AS owner FROM task_steps WHERE status = 'executing' ${OF_POLICY}`;
      return db.prepare<[string], { id: string; owner: string | null }>(sql).all(fp);
    },
    /** Status of the nearest earlier step that was not skipped (run_if looks at it). */
    previousOutcome(taskId: string, stepNumber: number): StepStatus | undefined {
      const sql = "SELECT status FROM task_steps WHERE task_id = ? AND step_number < ? AND status != 'skipped' ORDER BY step_number DESC LIMIT 1";
      return db.prepare<[string, number], { status: StepStatus }>(sql).get(taskId, stepNumber)?.status;
    },
    /** True while the task has a step left to run or running. */
    hasOpen(taskId: string): boolean {
      return db.prepare("SELECT 1 FROM task_steps WHERE task_id = ? AND status IN ('pending', 'executing') LIMIT 1").get(taskId) !== undefined;
    },
    /** Resets steps >= fromStep to pending (task_resume, task_confirm); not the executing ones. */
    resetFrom(taskId: string, fromStep: number): void {
      db.prepare(`UPDATE task_steps SET status = 'pending', result = NULL, error = NULL, note = NULL, started_at = NULL, ended_at = NULL,
        job_id = NULL, rerun_safe = NULL, claim_owner = NULL, lease_until = NULL WHERE task_id = ? AND step_number >= ? AND status != 'executing'`).run(taskId, fromStep);
    },
    /** Replaces a step's parameters (task_resume); the dry run's plan no longer describes them and is dropped. */
    setParameters(id: string, parameters: Record<string, unknown>): void {
      db.prepare('UPDATE task_steps SET parameters = ?, plan = NULL WHERE id = ?').run(JSON.stringify(parameters), id);
    },
    /** Records the plan a dry run showed for a step; resets and claims keep it. */
    setPlan(id: string, plan: StepPlan): void {
      db.prepare('UPDATE task_steps SET plan = ? WHERE id = ?').run(JSON.stringify(plan), id);
    },
    /** Marks every pending step of a task skipped with a note (task_cancel). */
    skipPending(taskId: string, note: string): void {
      db.prepare("UPDATE task_steps SET status = 'skipped', note = ? WHERE task_id = ? AND status = 'pending'").run(note, taskId);
    },
  };
}

export type TaskStepsRepo = ReturnType<typeof createTaskStepsRepo>;

// SQL for the tasks and task_context tables (saved entries are written by task-outputs-repo.ts). Status values come from scheduler/transitions.ts.
import type { Db } from './db.js';
import type { TaskContext, TaskRecord, TaskStatus } from '../execution/scheduler/types.js';

interface Row {
  id: string;
  name: string | null;
  created_at: string;
  status: TaskStatus;
  status_reason: string | null;
  dry_run: number;
  current_step: number;
  step_count: number;
  last_updated: string;
  policy: string | null;
  policy_fp: string | null;
}

export interface NewTask {
  id: string;
  name: string | null;
  createdAt: string;
  status: TaskStatus;
  dryRun: boolean;
  stepCount: number;
  context: TaskContext;
  /** The canonical policy record (JSON) and its fingerprint. */
  policy: string;
  policyFp: string;
}

export interface ListQuery {
  status?: TaskStatus;
  limit: number;
  /** Id of the last task of the previous page (ids are ULIDs: newest first). */
  before?: string;
}

function toTask(r: Row): TaskRecord {
  return {
    id: r.id, name: r.name, createdAt: r.created_at, status: r.status, statusReason: r.status_reason,
    dryRun: r.dry_run === 1, currentStep: r.current_step, stepCount: r.step_count, lastUpdated: r.last_updated,
    policy: r.policy, policyFp: r.policy_fp,
  };
}

/** Creates the tasks repository over an open database. */
export function createTasksRepo(db: Db) {
  const get = db.prepare<[string], Row>('SELECT * FROM tasks WHERE id = ?');
  const getCtx = db.prepare<[string], { context_data: string }>('SELECT context_data FROM task_context WHERE task_id = ?');
  const saved = db.prepare<[string], { key: string; value: string }>('SELECT key, value FROM task_context_entries WHERE task_id = ? ORDER BY rowid');
  const active = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM tasks WHERE status IN ('pending', 'running', 'paused')");
  const ended = db.prepare<[string, number], { id: string }>(
    "SELECT id FROM tasks WHERE status IN ('completed', 'failed', 'cancelled') AND last_updated < ? ORDER BY last_updated LIMIT ?",
  );
  const del = db.prepare("DELETE FROM tasks WHERE id = ? AND status IN ('completed', 'failed', 'cancelled')");
  return {
    /** Runs fn inside one BEGIN IMMEDIATE transaction (nested calls become savepoints). */
    atomic<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    insert(t: NewTask): void {
      db.prepare(
        `INSERT INTO tasks (id, name, created_at, status, dry_run, current_step, step_count, last_updated, policy, policy_fp)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
      ).run(t.id, t.name, t.createdAt, t.status, t.dryRun ? 1 : 0, t.stepCount, t.createdAt, t.policy, t.policyFp);
      db.prepare('INSERT INTO task_context (task_id, context_data) VALUES (?, ?)').run(t.id, JSON.stringify(t.context));
    },
    get(id: string): TaskRecord | undefined {
      const r = get.get(id);
      return r ? toTask(r) : undefined;
    },
    list(q: ListQuery): TaskRecord[] {
      const where: string[] = [];
      const args: unknown[] = [];
      if (q.status) (where.push('status = ?'), args.push(q.status));
      if (q.before) (where.push('id < ?'), args.push(q.before));
      const sql = `SELECT * FROM tasks ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
      return (db.prepare(sql).all(...args, q.limit) as Row[]).map(toTask);
    },
    /** Compare-and-swap on status; `patch` may also set dry_run or current_step. True when the row changed. */
    setStatus(id: string, from: readonly TaskStatus[], to: TaskStatus, opts: { reason: string | null; now: string; dryRun?: boolean; currentStep?: number }): boolean {
      const marks = from.map(() => '?').join(', ');
      const sql = `UPDATE tasks SET status = ?, status_reason = ?, last_updated = ?, dry_run = coalesce(?, dry_run),
        current_step = coalesce(?, current_step) WHERE id = ? AND status IN (${marks})`;
      const dry = opts.dryRun === undefined ? null : opts.dryRun ? 1 : 0;
      return db.prepare(sql).run(to, opts.reason, opts.now, dry, opts.currentStep ?? null, id, ...from).changes === 1;
    },
    /** The initial context with every saved entry (task_context_entries) over it. */
    context(id: string): TaskContext {
      const r = getCtx.get(id);
      const ctx = r ? (JSON.parse(r.context_data) as TaskContext) : {};
      for (const e of saved.all(id)) ctx[e.key] = JSON.parse(e.value) as unknown;
      return ctx;
    },
    /** Tasks pending, running or paused, whatever their policy (scheduler.max_active_tasks). */
    activeCount(): number {
      return active.get()!.n;
    },
    /** Deletes up to `limit` ended tasks last updated before `cutoff` (steps, context and outputs cascade); returns how many. */
    pruneEnded(cutoff: string, limit: number): number {
      const ids = ended.all(cutoff, limit);
      for (const { id } of ids) del.run(id);
      return ids.length;
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;

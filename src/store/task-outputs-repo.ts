// SQL for a task's stored step outputs and its saved context entries (one row per save_as key).
import type { Db } from './db.js';

/** A saved context entry: the value as JSON text, its size, and the step that saved it. */
export interface ContextEntry {
  key: string;
  value: string;
  bytes: number;
  stepId: string | null;
}

/** Creates the repository of task_step_outputs and task_context_entries. */
export function createTaskOutputsRepo(db: Db) {
  const getOut = db.prepare<[string], { result: string }>('SELECT result FROM task_step_outputs WHERE step_id = ?');
  const putOut = db.prepare('INSERT OR REPLACE INTO task_step_outputs (step_id, result, bytes) VALUES (?, ?, ?)');
  const entries = db.prepare<[string], ContextEntry>('SELECT key, value, bytes, step_id AS stepId FROM task_context_entries WHERE task_id = ? ORDER BY rowid');
  const putEntry = db.prepare('INSERT OR REPLACE INTO task_context_entries (task_id, key, value, bytes, step_id) VALUES (?, ?, ?, ?, ?)');
  const savedBytes = db.prepare<[string, string], { n: number | null }>('SELECT sum(bytes) AS n FROM task_context_entries WHERE task_id = ? AND key <> ?');
  const initialBytes = db.prepare<[string], { n: number | null }>('SELECT length(CAST(context_data AS BLOB)) AS n FROM task_context WHERE task_id = ?');
  return {
    /** The full stored result of a step (JSON text), when it was stored apart from its row. */
    output(stepId: string): string | undefined {
      return getOut.get(stepId)?.result;
    },
    putOutput(stepId: string, json: string): void {
      putOut.run(stepId, json, Buffer.byteLength(json));
    },
    entries(taskId: string): ContextEntry[] {
      return entries.all(taskId);
    },
    putEntry(taskId: string, e: ContextEntry): void {
      putEntry.run(taskId, e.key, e.value, e.bytes, e.stepId);
    },
    /** Bytes the task's context holds besides key `except`: the initial context plus every other saved entry. */
    contextBytes(taskId: string, except: string): number {
      return (initialBytes.get(taskId)?.n ?? 0) + (savedBytes.get(taskId, except)?.n ?? 0);
    },
  };
}

export type TaskOutputsRepo = ReturnType<typeof createTaskOutputsRepo>;

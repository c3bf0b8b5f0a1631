// What `workbench tasks …` does: open the task store and list, show, resume or cancel.
import { join } from 'node:path';
import { createTaskStore, type TaskStore } from '../execution/scheduler/env.js';
import { ensureScheduler } from '../execution/scheduler/service.js';
import { cancelTask, resumeTask } from '../execution/scheduler/task-actions.js';
import { taskListView, taskStatusView } from '../execution/scheduler/task-view.js';
import type { TaskStatus } from '../execution/scheduler/types.js';
import { openDb } from '../store/db.js';
import { bootApp, loadSettings } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';

/** Flags of the `workbench tasks` subcommands. */
export type TaskFlags = GlobalFlags & { status?: TaskStatus; limit?: string; fromStep?: string; run?: boolean };

function openStore(flags: GlobalFlags): TaskStore {
  const { runtime } = loadSettings(flags);
  return createTaskStore(openDb(join(runtime.stateDir, 'workbench.db')));
}

async function guarded(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    fail((err as Error).message);
  }
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Resumes inline: this process runs a scheduler until the task stops (for when no server runs).
 * Without --run the task is only marked running; a running server's runner picks it up from the database.
 */
async function runInline(flags: GlobalFlags, id: string): Promise<void> {
  const app = bootApp(flags);
  const { env } = ensureScheduler(app.deps);
  while (env.tasks.get(id)?.status === 'running') await new Promise((r) => setTimeout(r, 200));
  print(taskStatusView(env, id));
  await app.deps.close();
}

/** `tasks ls`. */
export function listTasks(flags: TaskFlags): Promise<void> {
  return guarded(() => print(taskListView(openStore(flags), { status: flags.status, limit: Number(flags.limit) })));
}

/** `tasks show <id>`. */
export function showTask(id: string, flags: TaskFlags): Promise<void> {
  return guarded(() => print(taskStatusView(openStore(flags), id)));
}

/** `tasks resume <id> [--from-step n] [--run]`. */
export function resumeTaskCommand(id: string, flags: TaskFlags): Promise<void> {
  return guarded(async () => {
    const fromStep = flags.fromStep === undefined ? undefined : Number(flags.fromStep);
    const task = resumeTask(openStore(flags), id, { fromStep });
    if (flags.run) return runInline(flags, task.id);
    print({ task_id: task.id, status: task.status, note: 'marked for resume; a running server continues it (or use --run)' });
  });
}

/** `tasks cancel <id>`. */
export function cancelTaskCommand(id: string, flags: TaskFlags): Promise<void> {
  return guarded(() => {
    const task = cancelTask(openStore(flags), id);
    print({ task_id: task.id, status: task.status });
  });
}

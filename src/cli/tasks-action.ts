// What `workbench tasks …` does: open the task store and list, show, resume or cancel.
import { join } from 'node:path';
import { createTaskStore, type TaskStore } from '../execution/scheduler/env.js';
import { ensureScheduler } from '../execution/scheduler/service.js';
import { cancelTask, resumeTask } from '../execution/scheduler/task-actions.js';
import { taskListView, taskStatusView } from '../execution/scheduler/task-view.js';
import type { TaskStatus } from '../execution/scheduler/types.js';
import { bindPolicy, describePolicy, parseRecord, policyRecordOf } from '../config/policy-record.js';
import { serverPolicy } from '../control/server-policy.js';
import { openDb } from '../store/db.js';
import { bootApp, loadSettings } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';
import { safeJson } from '../shared/escape-text.js';

/** Flags of the `workbench tasks` subcommands. */
export type TaskFlags = GlobalFlags & { status?: TaskStatus; limit?: string; fromStep?: string; run?: boolean };

function openStore(flags: GlobalFlags): TaskStore & { policyFp: string } {
  const { config, runtime } = loadSettings(flags);
  const policyFp = bindPolicy(policyRecordOf(config, runtime)).fingerprint;
  return { ...createTaskStore(openDb(join(runtime.stateDir, 'workbench.db'))), policyFp };
}

async function guarded(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    fail((err as Error).message);
  }
}

function print(value: unknown): void {
  process.stdout.write(`${safeJson(value, 2)}\n`);
}

/**
 * Resumes inline: this process runs a scheduler until the task stops (for when no server runs).
 * Without --run the task is only marked running; a running server's runner picks it up from the database.
 */
async function runInline(flags: GlobalFlags, id: string): Promise<void> {
  const app = bootApp(flags);
  const task = createTaskStore(app.deps.store().db).tasks.get(id);
  if (task && task.policyFp !== serverPolicy(app.deps).fingerprint) {
    await app.deps.close();
    throw new Error(`task ${id} is bound to another policy than this command's (${describePolicy(parseRecord(task.policy))}); run it with that configuration and roots`);
  }
  const { env } = ensureScheduler(app.deps);
  while (env.tasks.get(id)?.status === 'running') await new Promise((r) => setTimeout(r, 200));
  print(taskStatusView(env, id, env.policyFp));
  await app.deps.close();
}

/** `tasks ls`. */
export function listTasks(flags: TaskFlags): Promise<void> {
  return guarded(() => {
    const store = openStore(flags);
    print(taskListView(store, { status: flags.status, limit: Number(flags.limit) }, store.policyFp));
  });
}

/** `tasks show <id>`. */
export function showTask(id: string, flags: TaskFlags): Promise<void> {
  return guarded(() => {
    const store = openStore(flags);
    // The person's own channel: the content of every task in their state directory, whatever its
    // policy (only servers — the agent's channel — are limited to their own policy's content).
    print(taskStatusView(store, id));
  });
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

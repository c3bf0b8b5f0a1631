// `workbench tasks ls|show|resume|cancel`: the same store as the server, with or without one running.
import type { Command } from 'commander';
import { join } from 'node:path';
import { createTaskStore, type TaskStore } from '../execution/scheduler/env.js';
import { ensureScheduler } from '../execution/scheduler/service.js';
import { cancelTask, resumeTask } from '../execution/scheduler/task-actions.js';
import { taskListView, taskStatusView } from '../execution/scheduler/task-view.js';
import type { TaskStatus } from '../execution/scheduler/types.js';
import { openDb } from '../store/db.js';
import { bootApp, fail, loadSettings, withGlobalFlags, type GlobalFlags } from './boot.js';

type Flags = GlobalFlags & { status?: TaskStatus; limit?: string; fromStep?: string; run?: boolean };

function openStore(flags: GlobalFlags): TaskStore {
  const { runtime } = loadSettings(flags);
  return createTaskStore(openDb(join(runtime.stateDir, 'workbench.db')));
}

function guarded<A extends unknown[]>(fn: (...args: A) => void | Promise<void>) {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      fail((err as Error).message);
    }
  };
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

/** Registers `workbench tasks …`. */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('inspect and steer task flows (the server need not run)');
  withGlobalFlags(tasks.command('ls').description('list tasks, newest first'))
    .option('--status <status>', 'pending|running|completed|failed|paused|cancelled')
    .option('--limit <n>', 'at most n tasks', '20')
    .action(guarded((flags: Flags) => print(taskListView(openStore(flags), { status: flags.status, limit: Number(flags.limit) }))));
  withGlobalFlags(tasks.command('show <id>').description('a task with its context and steps'))
    .action(guarded((id: string, flags: Flags) => print(taskStatusView(openStore(flags), id))));
  withGlobalFlags(tasks.command('resume <id>').description('resume a paused or failed task (a running server picks it up)'))
    .option('--from-step <n>', 'restart from this step instead of the one it stopped on')
    .option('--run', 'no server running: run the task in this process until it stops')
    .action(guarded(async (id: string, flags: Flags) => {
      const fromStep = flags.fromStep === undefined ? undefined : Number(flags.fromStep);
      const task = resumeTask(openStore(flags), id, { fromStep });
      if (flags.run) return runInline(flags, task.id);
      print({ task_id: task.id, status: task.status, note: 'marked for resume; a running server continues it (or use --run)' });
    }));
  withGlobalFlags(tasks.command('cancel <id>').description('cancel a task; its running step stops within a lease period'))
    .action(guarded((id: string, flags: Flags) => {
      const task = cancelTask(openStore(flags), id);
      print({ task_id: task.id, status: task.status });
    }));
}

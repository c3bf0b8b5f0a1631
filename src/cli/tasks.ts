// `workbench tasks ls|show|resume|cancel`: the same store as the server, with or without one running.
import type { Command } from 'commander';
import { withGlobalFlags } from './flags.js';
import type { TaskFlags } from './tasks-action.js';

const actions = () => import('./tasks-action.js');

/** Registers `workbench tasks …`; the scheduler loads only when a subcommand runs. */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('inspect and steer task flows (the server need not run)');
  withGlobalFlags(tasks.command('ls').description('list tasks, newest first'))
    .option('--status <status>', 'pending|running|completed|failed|paused|cancelled')
    .option('--limit <n>', 'at most n tasks', '20')
    .action(async (flags: TaskFlags) => (await actions()).listTasks(flags));
  withGlobalFlags(tasks.command('show <id>').description('a task with its context and steps'))
    .action(async (id: string, flags: TaskFlags) => (await actions()).showTask(id, flags));
  withGlobalFlags(tasks.command('resume <id>').description('resume a paused or failed task (a running server picks it up)'))
    .option('--from-step <n>', 'restart from this step instead of the one it stopped on')
    .option('--run', 'no server running: run the task in this process until it stops')
    .action(async (id: string, flags: TaskFlags) => (await actions()).resumeTaskCommand(id, flags));
  withGlobalFlags(tasks.command('cancel <id>').description('cancel a task; its running step stops within a lease period'))
    .action(async (id: string, flags: TaskFlags) => (await actions()).cancelTaskCommand(id, flags));
}

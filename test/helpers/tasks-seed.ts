// Seeds a database with N tasks of M append_line steps each (every line unique: "<task>.<step>").
import { createTask } from '../../src/execution/scheduler/create-task.js';
import { createTaskStore, toolMap } from '../../src/execution/scheduler/env.js';
import type { Db } from '../../src/store/db.js';
import { appendLineTool, LIGHT_POLICY } from './tasks-light-runner.js';

/** Creates the tasks (status running) and returns their ids. */
export function seedAppendTasks(db: Db, file: string, tasks: number, stepsPerTask: number): string[] {
  const store = createTaskStore(db);
  const tools = toolMap([appendLineTool(file)]);
  const ids: string[] = [];
  for (let i = 0; i < tasks; i++) {
    const steps = Array.from({ length: stepsPerTask }, (_, j) => ({ action: 'append_line', parameters: { line: `${i}.${j + 1}` } }));
    ids.push(createTask(store, tools, { steps, dryRun: false, policy: LIGHT_POLICY }).id);
  }
  return ids;
}

// Task runner throughput: steps per second with 1 in-process claimer and 50 claimer processes,
// against raw better-sqlite3 single-row UPDATE commits of the same number of rows in one process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunner } from '../src/execution/scheduler/runner.js';
import { openDb } from '../src/store/db.js';
import { lightEnv } from '../test/helpers/tasks-light-runner.js';
import { seedAppendTasks } from '../test/helpers/tasks-seed.js';
import { median, type BenchRow } from './stats.js';

const CHILD = fileURLToPath(new URL('../test/helpers/tasks-claimer-child.js', import.meta.url));

function scratch(): { db: string; out: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'wb-tasks-bench-'));
  return { db: join(dir, 'workbench.db'), out: join(dir, 'lines.txt'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

async function untilDone(db: ReturnType<typeof openDb>): Promise<void> {
  const q = db.prepare("SELECT count(*) AS n FROM tasks WHERE status = 'running'");
  while ((q.get() as { n: number }).n > 0) await new Promise((r) => setTimeout(r, 5));
}

/** Steps/s of one in-process runner (slots 1) over tasks × steps append_line steps. */
async function oneRunner(tasks: number, steps: number): Promise<number> {
  const s = scratch();
  const db = openDb(s.db);
  seedAppendTasks(db, s.out, tasks, steps);
  const runner = createRunner({ env: lightEnv(db, s.out), slots: 1, pollMs: 5 });
  const t0 = performance.now();
  runner.start();
  await untilDone(db);
  const rate = (tasks * steps) / ((performance.now() - t0) / 1000);
  await runner.stop();
  db.close();
  s.done();
  return rate;
}

/** Steps/s of `procs` claimer processes (start-up included). */
async function manyRunners(procs: number, tasks: number, steps: number): Promise<number> {
  const s = scratch();
  const db = openDb(s.db);
  seedAppendTasks(db, s.out, tasks, steps);
  const t0 = performance.now();
  const exits = Array.from({ length: procs }, () => new Promise((r) => spawn(process.execPath, [CHILD, s.db, s.out], { stdio: 'ignore' }).on('exit', r)));
  await Promise.all(exits);
  const rate = (tasks * steps) / ((performance.now() - t0) / 1000);
  db.close();
  s.done();
  return rate;
}

/** Rows/s of raw autocommit `UPDATE … WHERE id = ?` on the same table, one process. */
function rawUpdates(tasks: number, steps: number): number {
  const s = scratch();
  const db = openDb(s.db);
  seedAppendTasks(db, s.out, tasks, steps);
  const ids = db.prepare('SELECT id FROM task_steps').pluck().all() as string[];
  const upd = db.prepare("UPDATE task_steps SET status = 'success' WHERE id = ? AND status = 'pending'");
  const t0 = performance.now();
  for (const id of ids) upd.run(id);
  const rate = ids.length / ((performance.now() - t0) / 1000);
  db.close();
  s.done();
  return rate;
}

/** The tasks benchmark rows. */
export async function benchTasks(): Promise<BenchRow[]> {
  const one: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 3; i++) {
    one.push(await oneRunner(20, 100));
    base.push(rawUpdates(20, 100));
  }
  const many = await manyRunners(50, 50, 100);
  const note = 'append_line steps; baseline = raw single-row UPDATE commits, one process';
  return [
    { name: 'task steps/s, 1 claimer (2000 steps)', ours: median(one), baseline: median(base), unit: 'steps/s', note },
    { name: 'task steps/s, 50 claimer processes (5000 steps)', ours: many, baseline: median(base), unit: 'steps/s', note: `${note}; start-up of 50 node processes included; 1 run` },
  ];
}

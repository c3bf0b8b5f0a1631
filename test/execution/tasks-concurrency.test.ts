// 50 runner processes on one database: every one of 10 000 steps runs exactly once.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { openDb } from '../../src/store/db.js';
import { seedAppendTasks } from '../helpers/tasks-seed.js';
import { alive, waitFor } from '../helpers/wait.js';
import { tempDirs } from '../helpers/workspace.js';

const CHILD = fileURLToPath(new URL('../helpers/tasks-claimer-child.js', import.meta.url));
const RUNNERS = 50;
const TASKS = 100;
const STEPS = 100;

describe('concurrent runners', () => {
  const dirs = tempDirs('wb-tasks-conc-');
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) if (c.pid && alive(c.pid)) c.kill('SIGKILL');
    dirs.cleanup();
  });

  it(`${RUNNERS} processes execute ${TASKS * STEPS} steps exactly once`, async (t) => {
    const dbPath = join(dirs.state, 'workbench.db');
    const out = join(dirs.root, 'lines.txt');
    const db = openDb(dbPath);
    seedAppendTasks(db, out, TASKS, STEPS);
    const t0 = Date.now();
    for (let i = 0; i < RUNNERS; i++) children.push(spawn(process.execPath, [CHILD, dbPath, out], { stdio: ['ignore', 'ignore', 'inherit'] }));
    await waitFor(() => children.every((c) => c.exitCode !== null || c.signalCode !== null), 120_000, 'all runners to finish');
    t.diagnostic(`${TASKS * STEPS} steps with ${RUNNERS} runner processes in ${Date.now() - t0} ms (process start-up included)`);
    assert.ok(children.every((c) => c.exitCode === 0), 'every runner exited 0');
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const unique = new Set(lines);
    assert.equal(lines.length - unique.size, 0, 'duplicates');
    assert.equal(unique.size, TASKS * STEPS);
    const counts = db.prepare('SELECT status, count(*) AS n, max(attempts) AS a FROM task_steps GROUP BY status').all();
    assert.deepEqual(counts, [{ status: 'success', n: TASKS * STEPS, a: 1 }]);
    const owners = db.prepare("SELECT count(*) AS n FROM tasks WHERE status = 'completed'").get() as { n: number };
    assert.equal(owners.n, TASKS);
    db.close();
  });
});

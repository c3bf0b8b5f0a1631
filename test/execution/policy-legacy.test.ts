// Rows written before jobs and tasks recorded their policy (migration 0004): no server runs them,
// and every view says why instead of leaving them to hang silently.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import Sqlite from 'better-sqlite3';
import { createTask } from '../../src/execution/scheduler/create-task.js';
import { createTaskStore, toolMap } from '../../src/execution/scheduler/env.js';
import { createRunner } from '../../src/execution/scheduler/runner.js';
import { taskListView, taskStatusView } from '../../src/execution/scheduler/task-view.js';
import { viewJob } from '../../src/execution/jobs/job-view.js';
import { migrate } from '../../src/store/db.js';
import { makeService, makeStateDir } from '../helpers/jobs-fixture.js';
import { appendLineTool, LIGHT_POLICY, lightEnv } from '../helpers/tasks-light-runner.js';
import { waitFor } from '../helpers/wait.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url));
const env = makeStateDir();
after(() => env.cleanup());

test('a queued job and a running task from before policies were recorded are never claimed; views say so', async () => {
  // A database at schema version 3, with rows as the previous release wrote them.
  const old = join(env.stateDir, 'old-migrations');
  mkdirSync(old);
  for (const f of readdirSync(MIGRATIONS).filter((f) => f < '0004')) copyFileSync(join(MIGRATIONS, f), join(old, f));
  const dbPath = join(env.stateDir, 'workbench.db');
  const raw = new Sqlite(dbPath);
  migrate(raw, old);
  const now = new Date().toISOString();
  raw.prepare("INSERT INTO jobs (id, command, status, created_at) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'echo legacy', 'queued', ?)").run(now);
  raw.prepare("INSERT INTO tasks (id, created_at, status, step_count, last_updated) VALUES ('legacy-task', ?, 'running', 1, ?)").run(now, now);
  raw.prepare("INSERT INTO task_context (task_id) VALUES ('legacy-task')").run();
  raw.prepare("INSERT INTO task_steps (id, task_id, step_number, action, parameters) VALUES ('legacy-task.1', 'legacy-task', 1, 'append_line', '{\"line\":\"legacy\"}')").run();
  raw.close();

  // Today's code opens it (migration 0004 applies) and runs its own work, never the legacy rows.
  const svc = makeService(env.stateDir);
  after(() => svc.close());
  svc.tick();
  const db = svc.ctx.db;
  const runner = createRunner({ env: lightEnv(db, join(env.workspace, 'lines')), pollMs: 10 });
  runner.start();
  const store = createTaskStore(db);
  const own = createTask(store, toolMap([appendLineTool(join(env.workspace, 'lines'))]), { steps: [{ action: 'append_line', parameters: { line: 'own' } }], dryRun: false, policy: LIGHT_POLICY });
  await waitFor(() => store.tasks.get(own.id)?.status === 'completed', 10_000, 'the runner\'s own task');
  await runner.stop();

  assert.equal(store.steps.get('legacy-task.1')!.attempts, 0, 'the legacy step was never claimed');
  assert.equal(svc.repo.get('01ARZ3NDEKTSV4RRFFQ69G5FAV')!.status, 'queued', 'the legacy job was never started');
  const listed = taskListView(store, {}, LIGHT_POLICY.fingerprint).tasks.find((t) => t.task_id === 'legacy-task');
  assert.match(String(listed?.status_reason), /^waiting_for_policy: created before policies were recorded/);
  // Its context and step results are not this policy's content; the refusal still says what it waits for.
  assert.throws(() => taskStatusView(store, 'legacy-task', LIGHT_POLICY.fingerprint), (e: Error & { rule?: string }) => e.rule === 'task.other_policy' && /waiting_for_policy: created before policies were recorded/.test(e.message));
  const view = viewJob(env.stateDir, svc.repo.get('01ARZ3NDEKTSV4RRFFQ69G5FAV')!, new Date(), svc.ctx.policy.fingerprint);
  assert.match(view.note ?? '', /^waiting_for_policy: created before policies were recorded/);
});

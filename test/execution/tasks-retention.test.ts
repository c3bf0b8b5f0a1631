// Task retention (scheduler.retention_days): ended tasks older than it go with their steps, context
// entries and stored outputs, at start-up and in bounded passes; active and recent tasks stay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureScheduler, taskStoreOf } from '../../src/execution/scheduler/service.js';
import { pruneEndedTasks } from '../../src/execution/scheduler/task-retention.js';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const ENDED = ['completed', 'paused', 'failed', 'cancelled'];
const OLD = '2020-01-01T00:00:00.000Z';

describe('task retention (read-only)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tasks-retention-');
    t = taskApp(dirs, 'read-only', { scheduler: { lease_ms: 2000, max_context_bytes: 4096 } });
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  async function make(steps: unknown[]): Promise<string> {
    const r = await t.call('task_create', { steps });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const id = r.structuredContent.task_id as string;
    await t.waitTask(id, ENDED);
    return id;
  }
  const count = (sql: string, id: string) => (t.app.deps.store().db.prepare(sql).get(id) as { n: number }).n;
  const rowsOf = (id: string) => ({
    tasks: count('SELECT count(*) AS n FROM tasks WHERE id = ?', id),
    steps: count('SELECT count(*) AS n FROM task_steps WHERE task_id = ?', id),
    context: count('SELECT count(*) AS n FROM task_context WHERE task_id = ?', id),
    entries: count('SELECT count(*) AS n FROM task_context_entries WHERE task_id = ?', id),
    outputs: count("SELECT count(*) AS n FROM task_step_outputs WHERE step_id LIKE ? || '.%'", id),
  });

  it('prunes ended tasks older than retention_days with everything they stored; keeps active and recent ones', async () => {
    const big = { action: 'run_command', parameters: { command: ['seq', '1', '20000'], max_output_bytes: 200_000 }, save_as: 'big' };
    const completed = await make([big]);
    const failed = await make([{ action: 'run_command', parameters: { command: ['cat', 'missing.txt'] }, on_failure: 'abort' }]);
    const paused = await make([{ action: 'run_command', parameters: { command: ['cat', 'missing.txt'] } }]);
    const recent = await make([big]);
    assert.deepEqual(rowsOf(completed), { tasks: 1, steps: 1, context: 1, entries: 1, outputs: 1 });
    const db = t.app.deps.store().db;
    for (const id of [completed, failed, paused]) db.prepare('UPDATE tasks SET last_updated = ? WHERE id = ?').run(OLD, id);

    const pruned = pruneEndedTasks(taskStoreOf(t.app.deps), 30, new Date());
    assert.equal(pruned, 2);
    for (const id of [completed, failed]) assert.deepEqual(rowsOf(id), { tasks: 0, steps: 0, context: 0, entries: 0, outputs: 0 }, id);
    assert.equal((await t.status(paused)).status, 'paused', 'a paused task is active: never pruned');
    assert.equal((await t.status(recent)).status, 'completed', 'a recent task stays');
    assert.deepEqual(rowsOf(recent), { tasks: 1, steps: 1, context: 1, entries: 1, outputs: 1 });
    const gone = await t.call('task_status', { task_id: completed });
    assert.equal(gone.structuredContent.error_class, 'not_found');
  });

  it('prunes in bounded passes: a pass takes at most its share, the next pass the rest', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await make([{ action: 'run_command', parameters: { command: ['true'] } }]));
    const db = t.app.deps.store().db;
    for (const id of ids) db.prepare('UPDATE tasks SET last_updated = ? WHERE id = ?').run(OLD, id);
    const store = taskStoreOf(t.app.deps);
    assert.equal(pruneEndedTasks(store, 30, new Date(), 2), 2);
    assert.equal(ids.filter((id) => rowsOf(id).tasks === 1).length, 1);
    assert.equal(pruneEndedTasks(store, 30, new Date(), 2), 1);
    assert.equal(ids.filter((id) => rowsOf(id).tasks === 1).length, 0);
  });

  it('runs a pass when the scheduler starts (a new server over the same state directory)', async () => {
    const id = await make([{ action: 'run_command', parameters: { command: ['true'] } }]);
    t.app.deps.store().db.prepare('UPDATE tasks SET last_updated = ? WHERE id = ?').run(OLD, id);
    const second = taskApp(dirs, 'read-only');
    try {
      ensureScheduler(second.app.deps);
      await waitFor(() => rowsOf(id).tasks === 0, 10_000, 'the start-up pass');
      assert.deepEqual(rowsOf(id), { tasks: 0, steps: 0, context: 0, entries: 0, outputs: 0 });
    } finally {
      await second.app.deps.close();
    }
  });
});

// The task lane (SPEC §4.1a): background task steps have their own concurrency. With the lane
// saturated by sleeping steps and the control lane at one slot with no queue (so any slot a step
// held would answer `busy` at once), interactive calls are still answered, while the steps run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const TASKS = 6;
const LANE = 2;

describe('task lane: steps never take the slots of interactive calls (read-only)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  const ids: string[] = [];
  before(() => {
    dirs = tempDirs('wb-tasks-lane-');
    t = taskApp(dirs, 'read-only', {
      control: { max_inflight: 1, max_queue: 0 },
      scheduler: { lease_ms: 2000, max_concurrent_steps: LANE },
    });
  });
  after(async () => {
    for (const id of ids) await t.call('task_cancel', { task_id: id });
    await t.app.deps.close();
    dirs.cleanup();
  });

  const executing = () =>
    (t.app.deps.store().db.prepare("SELECT id FROM task_steps WHERE status = 'executing' ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id);

  it(`with ${TASKS} tasks of sleep steps, ${LANE} run at once and run_command / job_list are answered meanwhile`, { timeout: 60_000 }, async () => {
    const sleep = { action: 'run_command', parameters: { command: ['sleep', '15'], timeout_ms: 25_000 } };
    for (let i = 0; i < TASKS; i++) {
      const r = await t.call('task_create', { steps: [sleep, sleep] });
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      ids.push(r.structuredContent.task_id as string);
    }
    const busy = await waitFor(() => (executing().length === LANE ? executing() : undefined), 20_000, `${LANE} steps executing`);

    const run = await t.call('run_command', { command: ['true'] });
    assert.equal(run.isError, false, JSON.stringify(run.structuredContent));
    assert.equal(run.structuredContent.success, true);
    assert.equal(run.structuredContent.exit_code, 0);
    const jobs = await t.call('job_list', {});
    assert.equal(jobs.isError, false, JSON.stringify(jobs.structuredContent));

    // Answered while the lane was full: the same steps are still executing, and no more than the lane holds.
    assert.deepEqual(executing(), busy);
    const pending = t.app.deps.store().db.prepare("SELECT count(*) AS n FROM task_steps WHERE status = 'pending'").get() as { n: number };
    assert.equal(pending.n, TASKS * 2 - LANE, 'the other steps wait for the lane, none ran beside it');
  });
});

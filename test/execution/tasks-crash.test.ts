// kill -9 of the process running a task: the next process applies the crash rule.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { createTaskStore, type TaskStore } from '../../src/execution/scheduler/env.js';
import { ensureScheduler } from '../../src/execution/scheduler/service.js';
import type { StepRecord } from '../../src/execution/scheduler/types.js';
import type { Profile } from '../../src/policy/types.js';
import { openDb } from '../../src/store/db.js';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { alive, waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const CHILD = fileURLToPath(new URL('../helpers/tasks-server-child.js', import.meta.url));
const SLEEP_ALLOWED = { policy: { extra_allowed_commands: ['sleep'] } };

interface Crash {
  dirs: TempDirs;
  taskId: string;
  store: TaskStore;
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** Starts a child that runs `steps`, waits until step 1 satisfies `ready`, then kill -9s it. */
async function crashWhile(profile: Profile, steps: unknown[], ready: (s: StepRecord) => boolean): Promise<Crash> {
  const dirs = tempDirs('wb-tasks-crash-');
  cleanup.push(() => dirs.cleanup());
  const child: ChildProcess = spawn(process.execPath, [CHILD, dirs.root, profile, JSON.stringify(steps), JSON.stringify(SLEEP_ALLOWED)], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => void (alive(child.pid!) && child.kill('SIGKILL')));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const created = await waitFor(() => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]!) as { task_id?: string; error?: string }) : undefined), 15_000, 'child task');
  assert.ok(created.task_id, created.error);
  const db = openDb(join(dirs.state, 'workbench.db'));
  cleanup.push(() => void db.close());
  const store = createTaskStore(db);
  await waitFor(() => ready(store.steps.get(`${created.task_id}.1`)!), 15_000, 'step 1 executing in the child');
  child.kill('SIGKILL');
  await waitFor(() => child.exitCode !== null || child.signalCode !== null, 5000, 'child exit');
  return { dirs, taskId: created.task_id!, store };
}

function restart(c: Crash, profile: Profile): TaskApp {
  const t = taskApp(c.dirs, profile, SLEEP_ALLOWED);
  cleanup.push(() => t.app.deps.close());
  ensureScheduler(t.app.deps);
  return t;
}

describe('crash rule after kill -9', () => {
  it('re-runs a read-only step and completes the task', async () => {
    const steps = [{ action: 'run_command', parameters: { command: ['sleep', '2'] } }, { action: 'run_command', parameters: { command: ['echo', 'after'] } }];
    const c = await crashWhile('read-only', steps, (s) => s.status === 'executing' && s.rerunSafe === true);
    const t = restart(c, 'read-only');
    const done = await t.waitTask(c.taskId, ['completed', 'paused', 'failed'], 20_000);
    assert.equal(done.status, 'completed');
    assert.equal(done.steps[0].attempts, 2, 'the read-only step ran again');
    assert.equal(done.steps[1].status, 'success');
  });

  it('pauses the task as interrupted when the step had side effects; task_resume decides', async () => {
    const steps = [{ action: 'run_command', parameters: { command: ['sleep', '5'] } }, { action: 'run_command', parameters: { command: ['echo', 'after'] } }];
    const c = await crashWhile('workspace-write', steps, (s) => s.status === 'executing' && s.rerunSafe === false);
    const t = restart(c, 'workspace-write');
    const paused = await t.waitTask(c.taskId, ['paused', 'completed', 'failed'], 10_000);
    assert.equal(paused.status, 'paused');
    assert.equal(paused.status_reason, 'interrupted');
    assert.equal(paused.steps[0].status, 'failed');
    assert.equal(paused.steps[0].note, 'interrupted');
    assert.equal(paused.steps[1].status, 'pending', 'nothing after the interrupted step ran');
    await t.call('task_resume', { task_id: c.taskId, parameters: { command: ['true'] } });
    const done = await t.waitTask(c.taskId, ['completed', 'paused', 'failed']);
    assert.equal(done.status, 'completed');
  });

  it('re-attaches a job step to its durable job', async () => {
    const steps = [{ action: 'run_command', mode: 'job', parameters: { command: ['sleep', '3'] } }];
    const c = await crashWhile('workspace-write', steps, (s) => s.status === 'executing' && s.jobId !== null);
    const jobId = c.store.steps.get(`${c.taskId}.1`)!.jobId;
    const t = restart(c, 'workspace-write');
    const done = await t.waitTask(c.taskId, ['completed', 'paused', 'failed'], 30_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps[0]));
    assert.equal(done.steps[0].job_id, jobId);
    assert.equal(done.steps[0].attempts, 1, 'the job was not started twice');
    assert.equal(done.steps[0].result.status, 'succeeded');
  });
});

// Dry run (shadow mode) creates nothing and reports would_run; task_confirm runs it for real.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IllegalTransitionError, stepTransition, taskTransition } from '../../src/execution/scheduler/transitions.js';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

describe('dry run and confirm (workspace-write)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tasks-dry-');
    t = taskApp(dirs, 'workspace-write');
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  it('checks every step without running it, then task_confirm runs it from step 1', async () => {
    const made = join(dirs.workspace, 'made.txt');
    const res = await t.call('task_create', { dry_run: true, steps: [{ action: 'run_command', parameters: { command: ['touch', 'made.txt'] } }] });
    const id = res.structuredContent.task_id as string;
    const dry = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(dry.status, 'completed');
    assert.equal(dry.dry_run, true);
    assert.deepEqual(dry.steps[0].result.would_run.command, ['touch', 'made.txt']);
    assert.equal(existsSync(made), false, 'a dry run creates nothing');
    const confirmed = await t.call('task_confirm', { task_id: id });
    assert.equal(confirmed.isError, false, JSON.stringify(confirmed.structuredContent));
    const real = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(real.status, 'completed');
    assert.equal(real.dry_run, false);
    assert.equal(real.steps[0].result.exit_code, 0);
    assert.equal(existsSync(made), true);
  });

  it('checks every step, and a step the policy refuses makes the dry run end failed with its rule (SPEC §3.4)', async () => {
    const res = await t.call('task_create', {
      dry_run: true,
      steps: [{ action: 'run_command', parameters: { command: ['mkfs.ext4', '/dev/sda'] } }, { action: 'run_command', parameters: { command: ['ls'] } }],
    });
    const id = res.structuredContent.task_id as string;
    const dry = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(dry.status, 'failed');
    assert.equal(dry.steps[0].status, 'failed');
    assert.equal(typeof dry.steps[0].result.rule, 'string');
    assert.match(dry.status_reason, new RegExp(`step 1 \\(run_command\\) by rule ${dry.steps[0].result.rule.replace(/\./g, '\\.')}`));
    assert.equal(dry.steps[1].status, 'success', 'the later steps are still checked');
    const confirm = await t.call('task_confirm', { task_id: id });
    assert.equal(confirm.structuredContent.error_class, 'invalid_params', 'a refused plan cannot be confirmed');
  });

  it('task_cancel stops the executing step and skips the rest', async () => {
    const res = await t.call('task_create', { steps: [{ action: 'run_command', parameters: { command: ['sleep', '20'] } }, { action: 'run_command', parameters: { command: ['ls'] } }] });
    const id = res.structuredContent.task_id as string;
    await waitFor(async () => (await t.status(id)).steps[0].status === 'executing', 10_000, 'step 1 executing');
    const cancel = await t.call('task_cancel', { task_id: id });
    assert.equal(cancel.structuredContent.status, 'cancelled');
    const done = await waitFor(async () => {
      const s = await t.status(id);
      return s.steps[0].status !== 'executing' ? s : undefined;
    }, 10_000, 'step 1 stopped');
    assert.equal(done.status, 'cancelled');
    assert.equal(done.steps[0].status, 'failed');
    assert.equal(done.steps[1].status, 'skipped');
  });

  it('refuses task_confirm on a task that is not a completed dry run', async () => {
    const res = await t.call('task_create', { steps: [{ action: 'run_command', parameters: { command: ['ls'] } }] });
    const id = res.structuredContent.task_id as string;
    await t.waitTask(id, ['completed']);
    const confirm = await t.call('task_confirm', { task_id: id });
    assert.equal(confirm.structuredContent.error_class, 'invalid_params');
  });
});

describe('state machine', () => {
  it('allows the documented transitions and throws on the others', () => {
    assert.equal(taskTransition('pending', 'start'), 'running');
    assert.equal(taskTransition('paused', 'resume'), 'running');
    assert.equal(taskTransition('completed', 'confirm'), 'pending');
    assert.equal(stepTransition('pending', 'claim'), 'executing');
    assert.equal(stepTransition('executing', 'release'), 'pending');
    assert.equal(stepTransition('failed', 'reset'), 'pending');
    for (const [from, ev] of [['completed', 'start'], ['cancelled', 'resume'], ['pending', 'complete'], ['failed', 'pause'], ['running', 'confirm']] as const) {
      assert.throws(() => taskTransition(from, ev), IllegalTransitionError, `${ev} from ${from}`);
    }
    for (const [from, ev] of [['success', 'claim'], ['pending', 'succeed'], ['executing', 'claim'], ['skipped', 'fail'], ['pending', 'release']] as const) {
      assert.throws(() => stepTransition(from, ev), IllegalTransitionError, `${ev} from ${from}`);
    }
  });
});

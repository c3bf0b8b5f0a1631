// Task flows end to end through the tool layer: context passing, pause/resume, missing context, validation.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NGINX_ERRORS, writeNginxFixture } from '../helpers/tasks-nginx.js';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

describe('task flows (read-only profile)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  let errorLines = 0;
  before(() => {
    dirs = tempDirs('wb-tasks-');
    errorLines = writeNginxFixture(dirs.workspace);
    t = taskApp(dirs, 'read-only');
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  it('runs the nginx diagnosis: count, top five errors, then the code that logs them', async () => {
    const patterns = NGINX_ERRORS.map(([m]) => m).join('\\|');
    const res = await t.call('task_create', {
      name: 'nginx errors',
      context: { count_argv: ['grep', '-c', '-F', '[error]', 'logs/error.log'] },
      steps: [
        { action: 'run_command', parameters: { command: '{{context.count_argv}}' }, save_as: 'count' },
        { action: 'run_command', parameters: { command: `grep -o '${patterns}' logs/error.log | sort | uniq -c | sort -rn | head -5` }, save_as: 'top' },
        { action: 'run_command', parameters: { command: ['cut', '-c9-'], stdin: '{{context.top.stdout}}' }, save_as: 'names' },
        { action: 'run_command', parameters: { command: ['grep', '-rn', '-F', '-f', '-', 'src'], stdin: '{{context.names.stdout}}' }, save_as: 'code' },
      ],
    });
    assert.equal(res.isError, false, JSON.stringify(res.structuredContent));
    const id = res.structuredContent.task_id as string;
    const done = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.count.stdout.trim(), String(errorLines));
    const top = (done.context.top.stdout as string).trim().split('\n').map((l) => l.trim().replace(/^(\d+) /, '$1\t').split('\t'));
    assert.deepEqual(top.map(([n, m]) => [m, Number(n)]), NGINX_ERRORS.slice(0, 5));
    const code = done.context.code.stdout as string;
    for (const file of ['src/proxy.c:2:', 'src/connect.c:2:', 'src/balancer.c:2:']) assert.match(code, new RegExp(file.replace(/\./g, '\\.')));
    assert.doesNotMatch(code, /body\.c/, 'only the top five patterns are searched');
    assert.ok(done.steps.every((s: any) => s.status === 'success' && s.attempts === 1 && s.started_at && s.ended_at));
  });

  it('pauses on a failing step and completes after task_resume with fixed parameters', async () => {
    writeFileSync(join(dirs.workspace, 'present.txt'), 'hello\n');
    const res = await t.call('task_create', {
      steps: [
        { action: 'run_command', parameters: { command: ['cat', 'missing.txt'] }, save_as: 'file' },
        { action: 'run_command', parameters: { command: ['wc', '-c'], stdin: '{{context.file.stdout}}' }, save_as: 'size' },
      ],
    });
    const id = res.structuredContent.task_id as string;
    const paused = await t.waitTask(id, ['paused', 'completed', 'failed']);
    assert.equal(paused.status, 'paused');
    assert.match(paused.status_reason, /step 1 \(run_command\) failed/);
    assert.equal(paused.steps[0].status, 'failed');
    assert.equal(paused.steps[1].status, 'pending');
    const resumed = await t.call('task_resume', { task_id: id, parameters: { command: ['cat', 'present.txt'] } });
    assert.equal(resumed.isError, false, JSON.stringify(resumed.structuredContent));
    const done = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(done.status, 'completed');
    assert.equal(done.steps[0].attempts, 2);
    assert.deepEqual(done.steps[0].parameters, { command: ['cat', 'present.txt'] });
    assert.equal(done.context.size.stdout.trim(), '6');
  });

  it('fails a step that references a missing context key, naming the reference', async () => {
    const res = await t.call('task_create', {
      steps: [
        { action: 'run_command', parameters: { command: ['wc', '-l', 'logs/error.log'] }, save_as: 'lines' },
        { action: 'run_command', parameters: { command: ['grep', '-c', '{{context.nope.pattern}}', 'logs/error.log'] } },
      ],
    });
    const done = await t.waitTask(res.structuredContent.task_id as string, ['paused', 'completed', 'failed']);
    assert.equal(done.status, 'paused');
    assert.equal(done.steps[1].status, 'failed');
    assert.match(done.steps[1].error, /\{\{context\.nope\.pattern\}\}/);
    assert.match(done.steps[1].error, /command\[2\]/);
  });

  it('applies run_if and on_failure: continue runs on, a failure-only step runs, abort fails the task', async () => {
    const res = await t.call('task_create', {
      steps: [
        { action: 'run_command', parameters: { command: ['cat', 'missing.txt'] }, on_failure: 'continue' },
        { action: 'run_command', parameters: { command: ['wc', '-l', 'present.txt'] }, run_if: 'success' },
        { action: 'run_command', parameters: { command: ['echo', 'cleanup'] }, run_if: 'failure' },
        { action: 'run_command', parameters: { command: ['cat', 'missing.txt'] }, on_failure: 'abort' },
        { action: 'run_command', parameters: { command: ['echo', 'never'] } },
      ],
    });
    const done = await t.waitTask(res.structuredContent.task_id as string, ['paused', 'completed', 'failed']);
    assert.deepEqual(done.steps.map((s: any) => s.status), ['failed', 'skipped', 'success', 'failed', 'pending']);
    assert.equal(done.status, 'failed');
  });

  it('refuses unknown actions, task tools as actions and over scheduler.max_steps (200) steps, naming the step', async () => {
    const unknown = await t.call('task_create', { steps: [{ action: 'run_command', parameters: { command: ['ls'] } }, { action: 'no_such_tool', parameters: {} }] });
    assert.equal(unknown.structuredContent.error_class, 'invalid_params');
    assert.match(unknown.structuredContent.error as string, /step 2: unknown action 'no_such_tool'/);
    const nested = await t.call('task_create', { steps: [{ action: 'task_create', parameters: {} }] });
    assert.match(nested.structuredContent.error as string, /step 1: action 'task_create' is a task tool/);
    const many = await t.call('task_create', { steps: Array.from({ length: 201 }, () => ({ action: 'run_command', parameters: { command: ['ls'] } })) });
    assert.equal(many.structuredContent.error_class, 'too_large');
    assert.equal(many.structuredContent.rule, 'scheduler.max_steps');
    const badParams = await t.call('task_create', { steps: [{ action: 'run_command', parameters: { command: 42 } }] });
    assert.match(badParams.structuredContent.error as string, /step 1: invalid arguments for run_command/);
  });
});

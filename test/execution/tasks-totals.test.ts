// Task totals (SPEC §4.1a): max_steps, max_active_tasks and max_context_bytes refuse with too_large
// naming the key; a result beyond the context bound is kept by reference and still resolves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const cmd = (...argv: string[]) => ({ action: 'run_command', parameters: { command: argv } });
const ENDED = ['completed', 'paused', 'failed', 'cancelled'];

describe('task totals: refusals (read-only)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tasks-totals-');
    t = taskApp(dirs, 'read-only', { scheduler: { lease_ms: 2000, max_steps: 3, max_active_tasks: 2, max_context_bytes: 4096 } });
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  it('refuses more steps than scheduler.max_steps, naming the key and the numbers; the limit itself is accepted', async () => {
    const over = await t.call('task_create', { dry_run: true, steps: [cmd('true'), cmd('true'), cmd('true'), cmd('true')] });
    assert.equal(over.isError, true);
    assert.equal(over.structuredContent.error_class, 'too_large');
    assert.equal(over.structuredContent.rule, 'scheduler.max_steps');
    assert.match(over.structuredContent.error as string, /4 steps, over the scheduler\.max_steps limit of 3/);
    assert.match(over.structuredContent.error as string, /split the work/);
    const ok = await t.call('task_create', { steps: [cmd('true'), cmd('true'), cmd('true')] });
    assert.equal(ok.isError, false, JSON.stringify(ok.structuredContent));
    assert.equal((await t.waitTask(ok.structuredContent.task_id as string, ENDED)).status, 'completed');
  });

  it('refuses an initial context or step parameters over scheduler.max_context_bytes', async () => {
    const big = await t.call('task_create', { context: { blob: 'x'.repeat(5000) }, steps: [cmd('true')] });
    assert.equal(big.structuredContent.error_class, 'too_large');
    assert.equal(big.structuredContent.rule, 'scheduler.max_context_bytes');
    assert.match(big.structuredContent.error as string, /initial context is \d+ bytes, over the scheduler\.max_context_bytes limit of 4096/);
    const params = await t.call('task_create', { steps: [{ action: 'run_command', parameters: { command: ['cat'], stdin: 'y'.repeat(5000) } }] });
    assert.equal(params.structuredContent.rule, 'scheduler.max_context_bytes');
    assert.match(params.structuredContent.error as string, /step parameters together are \d+ bytes/);
  });

  it('refuses a task beyond scheduler.max_active_tasks (paused counts); after a cancel there is room again', async () => {
    const paused: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await t.call('task_create', { steps: [cmd('cat', 'missing.txt')] });
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      paused.push(r.structuredContent.task_id as string);
      assert.equal((await t.waitTask(paused[i]!, ENDED)).status, 'paused');
    }
    const third = await t.call('task_create', { steps: [cmd('true')] });
    assert.equal(third.structuredContent.error_class, 'too_large');
    assert.equal(third.structuredContent.rule, 'scheduler.max_active_tasks');
    assert.match(third.structuredContent.error as string, /2 tasks are already pending, running or paused in this state directory, the scheduler\.max_active_tasks limit of 2/);
    assert.match(third.structuredContent.error as string, /task_cancel/);
    // A dry run that completed is not active, but confirming it would make it so: refused the same way.
    assert.equal((await t.call('task_cancel', { task_id: paused[0] })).isError, false);
    const dry = await t.call('task_create', { dry_run: true, steps: [cmd('true')] });
    const dryId = dry.structuredContent.task_id as string;
    assert.equal((await t.waitTask(dryId, ENDED)).status, 'completed');
    const fill = await t.call('task_create', { steps: [cmd('cat', 'missing.txt')] });
    assert.equal(fill.isError, false, JSON.stringify(fill.structuredContent));
    await t.waitTask(fill.structuredContent.task_id as string, ['paused']);
    const confirm = await t.call('task_confirm', { task_id: dryId });
    assert.equal(confirm.structuredContent.rule, 'scheduler.max_active_tasks');
    assert.equal((await t.status(dryId)).status, 'completed', 'a refused confirm changes nothing');
    // Legitimate: with room again, the same confirm runs.
    assert.equal((await t.call('task_cancel', { task_id: paused[1] })).isError, false);
    const again = await t.call('task_confirm', { task_id: dryId });
    assert.equal(again.isError, false, JSON.stringify(again.structuredContent));
    assert.equal((await t.waitTask(dryId, ENDED)).status, 'completed');
  });
});

describe('task totals: results beyond the context bound are kept by reference (read-only)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tasks-ref-');
    t = taskApp(dirs, 'read-only', { scheduler: { lease_ms: 2000, max_context_bytes: 8192 } });
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  it('a 108 KB stdout is saved as a $ref with a preview; a later step gets the full value; a small result stays inline', async () => {
    const full = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('');
    const res = await t.call('task_create', {
      steps: [
        { action: 'run_command', parameters: { command: ['seq', '1', '20000'], max_output_bytes: 200_000 }, save_as: 'big' },
        { action: 'run_command', parameters: { command: ['wc', '-c'], stdin: '{{context.big.stdout}}' }, save_as: 'count' },
        { action: 'run_command', parameters: { command: ['tail', '-n', '1'], stdin: '{{context.big.stdout}}' }, save_as: 'last' },
      ],
    });
    assert.equal(res.isError, false, JSON.stringify(res.structuredContent));
    const done = await t.waitTask(res.structuredContent.task_id as string, ENDED);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    const ref = done.context.big;
    assert.equal(ref.$ref, `${done.task_id}.1`);
    assert.equal(ref.truncated_in_context, true);
    assert.ok(ref.bytes > full.length, `bytes ${ref.bytes}`);
    assert.ok(Buffer.byteLength(ref.preview) <= 2048);
    assert.match(ref.note, /scheduler\.max_context_bytes \(8192/);
    assert.equal(done.context.count.stdout.trim(), String(full.length), 'the later step received the full stored stdout');
    assert.equal(done.context.last.stdout, '20000\n');
    assert.equal(done.context.count.truncated_in_context, undefined, 'a small result stays in the context');
    // The step row shows a bounded preview; the full result is stored once, apart.
    assert.equal(done.steps[0].result.$ref, `${done.task_id}.1`);
    assert.equal(done.steps[0].result.truncated, true);
    const db = t.app.deps.store().db;
    const rows = db.prepare('SELECT step_id, bytes FROM task_step_outputs WHERE step_id LIKE ?').all(`${done.task_id}.%`) as Array<{ step_id: string; bytes: number }>;
    assert.deepEqual(rows.map((r) => r.step_id), [`${done.task_id}.1`]);
    const stored = JSON.parse((db.prepare('SELECT result FROM task_step_outputs WHERE step_id = ?').get(`${done.task_id}.1`) as { result: string }).result);
    assert.equal(stored.stdout, full);
  });
});

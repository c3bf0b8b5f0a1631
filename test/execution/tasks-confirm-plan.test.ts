// task_confirm runs exactly the plan the dry run showed (SPEC §3.4). A step whose values the dry run
// showed resolved is pinned to them: if they changed before the confirmed run reaches it, it does not
// run (rule task.plan_changed) and the task pauses. Real server (`workbench stdio`, workspace-write),
// the SDK's real MCP Client, real runner, real commands; effects are checked on the file system.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { pinPlan, planChanges } from '../../src/execution/scheduler/plan-pin.js';
import { PLAN_CHANGED, taskEventAfter } from '../../src/execution/scheduler/step-plan.js';
import { taskClient, type TaskClient } from '../helpers/tasks-client.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const ENDED = ['completed', 'paused', 'failed'];
const errors = (t: Record<string, any>) => JSON.stringify(t.steps.map((s: any) => s.error));

interface Attack {
  label: string;
  /** Steps of the dry run; `D` in a string is replaced by the case's directory. */
  steps: (d: string) => Array<Record<string, unknown>>;
  /** What the dry run must have shown for the pinned step (index 1): its would_run argv, or that it ran because it only reads. */
  shown: (d: string) => unknown;
  /** Written into `<d>/target.txt` before the dry run, then after it. */
  before: string;
  after: string;
  /** Files that must still exist (nothing with side effects ran); files that must not appear. */
  kept: string[];
  absent?: string[];
}

const readTarget = (d: string) => ({ action: 'read_file', parameters: { path: `${d}/target.txt` }, save_as: 't' });

/** Confirmed runs that must be refused: the value changed between the dry run and task_confirm. */
const ATTACKS: Attack[] = [
  {
    label: 'the red team case: rm -rf of a name read by step 1 (argv)',
    steps: (d) => [readTarget(d), { action: 'run_command', parameters: { command: ['rm', '-rf', '{{context.t.content}}'], cwd: d } }],
    shown: () => [['rm', '-rf', 'build-output']],
    before: 'build-output', after: 'src', kept: ['src/precious.c', 'build-output/old.o'],
  },
  {
    label: 'a string command, tokenized before the value goes in',
    steps: (d) => [readTarget(d), { action: 'run_command', parameters: { command: 'rm -rf {{context.t.content}}', cwd: d } }],
    shown: () => [['rm', '-rf', 'build-output']],
    before: 'build-output', after: 'src', kept: ['src/precious.c', 'build-output/old.o'],
  },
  {
    label: 'a durable job step (mode: job)',
    steps: (d) => [readTarget(d), { action: 'run_command', mode: 'job', parameters: { command: ['rm', '-rf', '{{context.t.content}}'], cwd: d } }],
    shown: () => [['rm', '-rf', 'build-output']],
    before: 'build-output', after: 'src', kept: ['src/precious.c', 'build-output/old.o'],
  },
  {
    label: 'on_failure: continue still pauses; the steps after it do not run',
    steps: (d) => [
      readTarget(d),
      { action: 'run_command', on_failure: 'continue', parameters: { command: ['rm', '-rf', '{{context.t.content}}'], cwd: d } },
      { action: 'run_command', run_if: 'always', parameters: { command: ['touch', 'after-step'], cwd: d } },
    ],
    shown: () => [['rm', '-rf', 'build-output']],
    before: 'build-output', after: 'src', kept: ['src/precious.c', 'build-output/old.o'], absent: ['after-step'],
  },
  {
    label: 'a value embedded in one argument (--opt=…)',
    steps: (d) => [readTarget(d), { action: 'run_command', parameters: { command: ['cp', 'src/precious.c', '--target-directory={{context.t.content}}'], cwd: d } }],
    shown: () => [['cp', 'src/precious.c', '--target-directory=build-output']],
    before: 'build-output', after: 'elsewhere', kept: ['src/precious.c'], absent: ['build-output/precious.c', 'elsewhere/precious.c'],
  },
  {
    label: 'a step the dry run ran because it only read, that would now write',
    steps: (d) => [readTarget(d), { action: 'run_command', parameters: { command: ['{{context.t.content}}', '-rf', 'src'], cwd: d } }],
    shown: () => 'dry_run_read',
    before: 'ls', after: 'rm', kept: ['src/precious.c'],
  },
];

describe('task_confirm runs the plan the dry run showed (workspace-write, over stdio)', () => {
  let dirs: TempDirs;
  let t: TaskClient;
  let n = 0;
  /** A fresh directory with src/precious.c, build-output/old.o and target.txt holding `target`. */
  const fixture = (target: string) => {
    const d = join(dirs.workspace, `case${n++}`);
    mkdirSync(join(d, 'src'), { recursive: true });
    mkdirSync(join(d, 'build-output'));
    writeFileSync(join(d, 'src', 'precious.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(d, 'build-output', 'old.o'), 'obj');
    writeFileSync(join(d, 'target.txt'), target);
    return d;
  };
  const dryRun = async (steps: Array<Record<string, unknown>>) => {
    const id = await t.createTask({ dry_run: true, steps });
    const dry = await t.waitTask(id);
    assert.equal(dry.status, 'completed', errors(dry));
    return { id, dry };
  };
  const confirm = async (id: string) => {
    const c = await t.call('task_confirm', { task_id: id });
    assert.equal(c.isError, false, JSON.stringify(c.s));
    return t.waitTask(id, ENDED);
  };

  before(async () => {
    dirs = tempDirs('wb-plan-');
    t = await taskClient({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
  });
  after(async () => {
    await t?.close();
    dirs?.cleanup();
  });

  for (const a of ATTACKS) {
    it(`refuses a changed plan: ${a.label}`, async () => {
      const d = fixture(a.before);
      const { id, dry } = await dryRun(a.steps(d));
      const shown = a.shown(d);
      if (shown === 'dry_run_read') assert.equal(dry.steps[1].note, 'dry_run_read', 'the dry run ran it: it only read');
      else assert.deepEqual(dry.steps[1].result.would_run.argv, shown, 'the dry run showed the resolved argv');
      writeFileSync(join(d, 'target.txt'), a.after);
      const real = await confirm(id);
      assert.equal(real.status, 'paused', errors(real));
      assert.equal(real.steps[0].status, 'success', 'the read-only step re-ran for real');
      const s = real.steps[1];
      assert.equal(s.status, 'failed');
      assert.equal(s.result.rule, 'task.plan_changed', JSON.stringify(s.result));
      assert.match(s.error, /^step 2 \(run_command\) no longer matches the plan its dry run showed/);
      assert.ok(s.error.includes(`{{context.t.content}} was "${a.before}" in the dry run and is "${a.after}" now`), s.error);
      assert.match(s.error, /Run a new dry run/);
      assert.match(real.status_reason, /task\.plan_changed/);
      for (const f of a.kept) assert.ok(existsSync(join(d, f)), `${f} still exists`);
      for (const f of a.absent ?? []) assert.equal(existsSync(join(d, f)), false, `${f} was not created`);
      if (real.steps[2]) assert.equal(real.steps[2].status, 'pending', 'no later step ran');
    });
  }

  it('a refused step stays refused on task_resume; new parameters on a confirmed step are refused (they were never shown)', async () => {
    const d = fixture('build-output');
    const { id } = await dryRun(ATTACKS[0]!.steps(d));
    writeFileSync(join(d, 'target.txt'), 'src');
    assert.equal((await confirm(id)).steps[1].result.rule, 'task.plan_changed');
    assert.equal((await t.call('task_resume', { task_id: id, from_step: 1 })).isError, false);
    const again = await t.waitTask(id, ENDED);
    assert.equal(again.status, 'paused');
    assert.equal(again.steps[1].result.rule, 'task.plan_changed', 'the plan still holds after a resume');
    assert.ok(existsSync(join(d, 'src', 'precious.c')));
    // New parameters would run something the person never saw in the dry run (red team C, finding 1):
    // refused, the step keeps its plan, nothing runs; a new dry run is the way to change the plan.
    const marker = join(d, 'MARKER-resume');
    const resumed = await t.call('task_resume', { task_id: id, from_step: 2, parameters: { command: ['touch', marker], cwd: d } });
    assert.equal(resumed.isError, true, JSON.stringify(resumed.s));
    assert.equal(resumed.s.rule, 'task.plan_changed');
    assert.equal(existsSync(marker), false);
    assert.ok(existsSync(join(d, 'build-output')));
    assert.ok(existsSync(join(d, 'src', 'precious.c')));
  });

  it('a side-effecting adapter parameter is pinned too (job_cancel of the job the dry run showed)', async () => {
    const d = fixture('');
    const jobA = (await t.call('job_start', { command: ['sleep', '60'], cwd: d })).s.job_id as string;
    const jobB = (await t.call('job_start', { command: ['sleep', '60'], cwd: d })).s.job_id as string;
    try {
      writeFileSync(join(d, 'target.txt'), jobA);
      const { id, dry } = await dryRun([readTarget(d), { action: 'job_cancel', parameters: { job_id: '{{context.t.content}}', grace_ms: 0 } }]);
      assert.equal(dry.steps[1].result.would_run.parameters.job_id, jobA);
      writeFileSync(join(d, 'target.txt'), jobB);
      const real = await confirm(id);
      assert.equal(real.steps[1].result.rule, 'task.plan_changed', JSON.stringify(real.steps[1]));
      assert.ok(real.steps[1].error.includes(`was "${jobA}" in the dry run and is "${jobB}" now`), real.steps[1].error);
      const b = (await t.call('job_status', { job_id: jobB })).s.status;
      assert.ok(b === 'running' || b === 'queued', `the job the dry run did not show was not cancelled (it is ${b})`);
    } finally {
      for (const j of [jobA, jobB]) await t.call('job_cancel', { job_id: j, grace_ms: 0 });
    }
  });

  // ---- Confirmed runs that must keep working ----

  it('the unchanged case runs the plan for real', async () => {
    const d = fixture('build-output');
    const { id } = await dryRun(ATTACKS[0]!.steps(d));
    assert.ok(existsSync(join(d, 'build-output')), 'the dry run removed nothing');
    const real = await confirm(id);
    assert.equal(real.status, 'completed', errors(real));
    assert.equal(existsSync(join(d, 'build-output')), false);
    assert.ok(existsSync(join(d, 'src', 'precious.c')));
  });

  it('a step with a placeholder (a value no step of the dry run produced) runs after confirm', async () => {
    const d = fixture('');
    const { id, dry } = await dryRun([
      { action: 'run_command', parameters: { command: ['sh', '-c', 'mkdir -p made-dir && echo made-dir'], cwd: d }, save_as: 'm' },
      { action: 'run_command', parameters: { command: ['touch', '{{context.m.stdout}}/inside'], cwd: d } },
    ]);
    assert.deepEqual(dry.steps[1].result.would_run.unresolved, ['{{context.m.stdout}}']);
    assert.equal(existsSync(join(d, 'made-dir')), false);
    const real = await confirm(id);
    assert.equal(real.status, 'completed', errors(real));
    assert.ok(existsSync(join(d, 'made-dir', 'inside')));
  });

  it('a placeholder value is checked against the policy at run time', async () => {
    const d = fixture('');
    const outside = `/var/tmp-wb-plan-${process.pid}.txt`;
    const { id } = await dryRun([
      { action: 'run_command', parameters: { command: ['sh', '-c', `echo ${outside}`], cwd: d }, save_as: 'dest' },
      { action: 'run_command', parameters: { command: ['cp', 'src/precious.c', '{{context.dest.stdout}}'], cwd: d } },
    ]);
    const real = await confirm(id);
    assert.equal(real.status, 'paused');
    assert.equal(real.steps[1].result.error_class, 'path_denied', JSON.stringify(real.steps[1].result));
    assert.equal(existsSync(outside), false, 'nothing was written outside the workspace');
  });

  it('a read-only step may see new values at confirm, as long as it still only reads', async () => {
    const d = fixture('src/precious.c');
    writeFileSync(join(d, 'other.c'), 'other\n');
    const { id, dry } = await dryRun([
      readTarget(d),
      { action: 'run_command', parameters: { command: ['cat', '{{context.t.content}}'], cwd: d }, save_as: 'out' },
      { action: 'run_command', parameters: { command: ['touch', 'done-marker'], cwd: d } },
    ]);
    assert.equal(dry.steps[1].note, 'dry_run_read');
    writeFileSync(join(d, 'target.txt'), 'other.c');
    const real = await confirm(id);
    assert.equal(real.status, 'completed', errors(real));
    assert.equal(real.context.out.stdout, 'other\n', 'the read re-ran with the value now');
    assert.ok(existsSync(join(d, 'done-marker')));
  });

  it('a side-effecting step whose own values did not change runs even when an earlier read changed', async () => {
    const d = fixture('first');
    const { id } = await dryRun([
      readTarget(d),
      { action: 'run_command', parameters: { command: ['touch', 'literal-marker'], cwd: d } },
    ]);
    writeFileSync(join(d, 'target.txt'), 'second');
    const real = await confirm(id);
    assert.equal(real.status, 'completed', errors(real));
    assert.ok(existsSync(join(d, 'literal-marker')));
  });

  it('a dry run recorded without a plan (before plans were kept) cannot be confirmed', async () => {
    const d = fixture('');
    const { id } = await dryRun([{ action: 'run_command', parameters: { command: ['touch', 'legacy-marker'], cwd: d } }]);
    const db = new Sqlite(join(dirs.state, 'workbench.db'));
    try {
      db.pragma('busy_timeout = 5000');
      assert.equal(db.prepare('UPDATE task_steps SET plan = NULL WHERE task_id = ?').run(id).changes, 1);
    } finally {
      db.close();
    }
    const c = await t.call('task_confirm', { task_id: id });
    assert.equal(c.isError, true);
    assert.equal(c.s.rule, 'task.plan_missing', JSON.stringify(c.s));
    assert.match(String(c.s.error), /dry run made before plans were recorded/);
    assert.equal((await t.call('task_status', { task_id: id })).s.status, 'completed', 'the dry run is left as it was');
    assert.equal(existsSync(join(d, 'legacy-marker')), false);
    assert.equal(readFileSync(join(d, 'src', 'precious.c'), 'utf8'), 'int main(void) { return 0; }\n');
  });
});

describe('plan pins (pure)', () => {
  it('pins the values the dry run knew, never a placeholder, whatever order object keys come in', () => {
    const params = { command: ['cp', '{{context.a.path}}', '{{ context.later.stdout }}'], env: { X: 'pre-{{context.obj}}' } };
    const plan = pinPlan(params, { a: { path: 'x.txt' }, obj: { b: 1, c: [2] } }, { placeholders: new Set(['later']) }, false, 'shown');
    assert.deepEqual(plan.refs.map((r) => r.reference), ['{{context.a.path}}', '{{context.obj}}']);
    assert.deepEqual(planChanges(plan, { a: { path: 'x.txt' }, obj: { c: [2], b: 1 }, later: { stdout: 'anything' } }), []);
    assert.deepEqual(planChanges(plan, { a: { path: 'y.txt' }, obj: { b: 1, c: [2] } }), [{ reference: '{{context.a.path}}', shown: '"x.txt"', now: '"y.txt"' }]);
    assert.deepEqual(planChanges(plan, { obj: { b: 1, c: [3] } }).map((c) => c.now), ['(not in the context)', '{"b":1,"c":[3]}']);
  });

  it('a long value is previewed with the count of characters left out', () => {
    const plan = pinPlan({ p: '{{context.v}}' }, { v: 'a'.repeat(500) }, {}, false, 'shown');
    assert.equal(plan.refs[0]!.preview, `"${'a'.repeat(199)}… (302 more characters)`);
    assert.match(planChanges(plan, { v: 'b' })[0]!.shown, /… \(302 more characters\)$/);
  });

  it('a changed plan pauses its task whatever the step\'s on_failure says', () => {
    const outcome = { status: 'failed' as const, result: null, error: 'changed', note: PLAN_CHANGED };
    for (const onFailure of ['pause', 'continue', 'abort'] as const) {
      const next = taskEventAfter({ outcome, onFailure, stepNumber: 2, action: 'run_command', dryRun: false, hasOpen: true });
      assert.equal(next?.event, 'pause', onFailure);
    }
    const plain = { ...outcome, note: null };
    assert.equal(taskEventAfter({ outcome: plain, onFailure: 'abort', stepNumber: 2, action: 'x', dryRun: false, hasOpen: true })?.event, 'fail');
    assert.equal(taskEventAfter({ outcome: plain, onFailure: 'continue', stepNumber: 2, action: 'x', dryRun: false, hasOpen: true }), null);
  });
});

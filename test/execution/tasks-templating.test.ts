// Templating on structure (SPEC §3.4, §4.1a): a context value fills one already-tokenized argument.
// Real server (`workbench stdio`, workspace-write), real SDK Client, real runner, real commands.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { taskClient, type TaskClient } from '../helpers/tasks-client.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const MARK = 'PWNED';

/** File names that, substituted as text into `cp DIR/<name> out`, would add a command. */
const INJECTED_NAMES: ReadonlyArray<[string, string]> = [
  ['pipeline stage', `report.txt | touch ${MARK}`],
  ['command separator', `report.txt; touch ${MARK}`],
  ['command substitution', `$(touch ${MARK})`],
  ['backticks', `\`touch ${MARK}\``],
  ['conditional list', `report.txt && touch ${MARK}`],
  ['quote breaking', `a' | touch ${MARK} 'b`],
  ['double-quote breaking', `a" | touch ${MARK} "b`],
  ['redirection', `report.txt > ${MARK}`],
  ['spaces become words', `report.txt ${MARK}`],
];

describe('task templating on structure (workspace-write, over stdio)', () => {
  let dirs: TempDirs;
  let t: TaskClient;
  const ws = () => dirs.workspace;
  const noMarker = () => {
    const found = readdirSync(ws(), { recursive: true }).map(String).filter((p) => p.split('/').pop() === MARK);
    assert.deepEqual(found, [], 'the injected command never ran');
  };

  before(async () => {
    dirs = tempDirs('wb-tmpl-');
    t = await taskClient({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
  });
  after(async () => {
    await t?.close();
    dirs?.cleanup();
  });

  for (const [i, [label, name]] of INJECTED_NAMES.entries()) {
    it(`a listed file name is one argument (${label}): dry run shows it, confirm runs it, nothing injected`, async () => {
      const dir = `in${i}`;
      mkdirSync(join(ws(), dir));
      writeFileSync(join(ws(), dir, name), `content ${i}\n`);
      const id = await t.createTask({
        dry_run: true,
        steps: [
          { action: 'run_command', parameters: { command: ['ls', dir] }, save_as: 'files' },
          { action: 'run_command', parameters: { command: `cp ${dir}/{{context.files.stdout}} out${i}.txt` } },
        ],
      });
      const dry = await t.waitTask(id);
      assert.equal(dry.status, 'completed', JSON.stringify(dry.steps.map((s: any) => s.error)));
      assert.equal(dry.steps[0].note, 'dry_run_read', 'the listing only reads, so it ran for real');
      const plan = dry.steps[1].result.would_run;
      assert.deepEqual(plan.argv, [['cp', `${dir}/${name}`, `out${i}.txt`]]);
      assert.deepEqual(plan.substitutions, [{ reference: '{{context.files.stdout}}', stage: 1, arg: 1, known: true }]);
      assert.equal(existsSync(join(ws(), `out${i}.txt`)), false, 'the dry run copied nothing');
      const confirm = await t.call('task_confirm', { task_id: id });
      assert.equal(confirm.isError, false, JSON.stringify(confirm.s));
      const real = await t.waitTask(id, ['completed', 'paused', 'failed']);
      assert.equal(real.status, 'completed', JSON.stringify(real.steps.map((s: any) => s.error)));
      assert.equal(readFileSync(join(ws(), `out${i}.txt`), 'utf8'), `content ${i}\n`);
      noMarker();
    });
  }

  it('a file name with a newline is refused, naming the substitution; nothing injected', async () => {
    mkdirSync(join(ws(), 'nl'));
    writeFileSync(join(ws(), 'nl', `report.txt\ntouch ${MARK}`), 'x');
    const id = await t.createTask({
      dry_run: true,
      steps: [
        { action: 'run_command', parameters: { command: ['ls', 'nl'] }, save_as: 'files' },
        { action: 'run_command', parameters: { command: 'cp nl/{{context.files.stdout}} out-nl.txt' } },
      ],
    });
    const dry = await t.waitTask(id);
    assert.equal(dry.status, 'failed');
    assert.equal(dry.steps[1].result.rule, 'arg.control_char');
    assert.match(dry.steps[1].error, /\{\{context\.files\.stdout\}\} \(substituted into argument 1 of stage 1\)/);
    assert.equal((await t.call('task_confirm', { task_id: id })).s.error_class, 'invalid_params');
    noMarker();
  });

  it('a pipeline keeps each value in its argument: `cat DIR/{{…}} | wc -c`', async () => {
    const id = await t.createTask({
      steps: [
        { action: 'run_command', parameters: { command: ['ls', 'in0'] }, save_as: 'files' },
        { action: 'run_command', parameters: { command: "cat 'in0/'{{context.files.stdout}} | wc -c" }, save_as: 'size' },
      ],
    });
    const done = await t.waitTask(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.size.stdout.trim(), String('content 0\n'.length));
    noMarker();
  });

  it('a job step (mode: job) gets the same structure: one argument, nothing injected', async () => {
    const id = await t.createTask({
      steps: [
        { action: 'run_command', parameters: { command: ['ls', 'in0'] }, save_as: 'files' },
        { action: 'run_command', mode: 'job', parameters: { command: 'cat in0/{{context.files.stdout}}' }, save_as: 'job' },
      ],
    });
    const done = await t.waitTask(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.job.stdout, 'content 0\n');
    noMarker();
  });

  it('an embedded reference (--opt={{…}}) replaces only its part of one argument', async () => {
    const id = await t.createTask({
      dry_run: true,
      context: { name: `x | touch ${MARK}` },
      steps: [{ action: 'run_command', parameters: { command: 'touch "--reference=in0/{{context.name}}" plain' } }],
    });
    const dry = await t.waitTask(id);
    assert.deepEqual(dry.steps[0].result.would_run.argv, [['touch', `--reference=in0/x | touch ${MARK}`, 'plain']]);
  });

  it('git rev-parse HEAD then git show {{context.head.stdout}}: the bare hash, string and argv forms', async () => {
    const git = (...a: string[]) => execFileSync('git', ['-C', join(ws(), 'repo'), ...a], { encoding: 'utf8' });
    mkdirSync(join(ws(), 'repo'));
    git('init', '-q');
    writeFileSync(join(ws(), 'repo', 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'first commit subject');
    const hash = git('rev-parse', 'HEAD').trim();
    const cwd = join(ws(), 'repo');
    const id = await t.createTask({
      steps: [
        { action: 'run_command', parameters: { command: 'git rev-parse HEAD', cwd }, save_as: 'head' },
        { action: 'run_command', parameters: { command: 'git show --stat {{context.head.stdout}}', cwd }, save_as: 'show' },
        { action: 'run_command', parameters: { command: ['git', 'log', '-1', '--format=%s', '{{context.head.stdout}}'], cwd }, save_as: 'log' },
      ],
    });
    const done = await t.waitTask(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.head.stdout, `${hash}\n`, 'the context value is exact');
    assert.match(done.context.show.stdout, new RegExp(`^commit ${hash}`));
    assert.equal(done.context.log.stdout, 'first commit subject\n');
  });

  it('a whole-command reference to an argv array runs that argv, one element per argument', async () => {
    const id = await t.createTask({ context: { argv: ['cat', 'in0/report.txt | touch PWNED'] }, steps: [{ action: 'run_command', parameters: { command: '{{context.argv}}' }, save_as: 'c' }] });
    const done = await t.waitTask(id);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.c.stdout, 'content 0\n');
    noMarker();
  });

  it('adapters take context paths through the same checks as literal paths', async () => {
    mkdirSync(join(ws(), 'docs'));
    writeFileSync(join(ws(), 'docs', 'readme.md'), 'hello docs\n');
    const ok = await t.createTask({
      context: { dir: 'docs' },
      steps: [
        { action: 'list_files', parameters: { path: '{{context.dir}}' }, save_as: 'ls' },
        { action: 'read_file', parameters: { path: '{{context.dir}}/{{context.ls.files.0.path}}' }, save_as: 'doc' },
      ],
    });
    const done = await t.waitTask(ok);
    assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
    assert.equal(done.context.doc.content, 'hello docs\n');
    const denied: Array<[string, string]> = [['list_files', '../..'], ['list_files', dirs.state], ['list_files', dirs.root], ['read_file', '/etc/shadow'], ['read_file', 'docs/../../state/workbench.db']];
    for (const [action, bad] of denied) {
      const literal = await t.call(action, { path: bad });
      assert.equal(literal.isError, true, `literal ${bad} is refused: ${JSON.stringify(literal.s).slice(0, 200)}`);
      const id = await t.createTask({ context: { p: bad }, steps: [{ action, parameters: { path: '{{context.p}}' } }] });
      const res = await t.waitTask(id);
      assert.equal(res.steps[0].status, 'failed', `${bad}: ${JSON.stringify(res.steps[0]).slice(0, 300)}`);
      assert.equal(res.steps[0].result.error_class, literal.s.error_class, bad);
      assert.equal(res.steps[0].result.rule, literal.s.rule, bad);
    }
  });

  it('a value with a NUL byte is refused, naming the substitution (commands and parameters)', async () => {
    const id = await t.createTask({
      context: { bad: 'a\u0000b' },
      steps: [
        { action: 'run_command', parameters: { command: ['echo', '{{context.bad}}'] }, on_failure: 'continue' },
        { action: 'read_file', parameters: { path: 'x{{context.bad}}' }, on_failure: 'continue' },
      ],
    });
    const done = await t.waitTask(id);
    assert.equal(done.steps[0].result.rule, 'context.nul');
    assert.match(done.steps[0].error, /\{\{context\.bad\}\} \(substituted into argument 1 of stage 1\) contains a NUL/);
    assert.equal(done.steps[1].result.rule, 'context.nul');
    assert.match(done.steps[1].error, /\{\{context\.bad\}\} \(substituted into parameter 'path'\)/);
  });

  it('a reference in shell text is refused: values never go into text a shell reads', async () => {
    const id = await t.createTask({ context: { f: 'a.txt' }, steps: [{ action: 'run_command', parameters: { command: 'cat {{context.f}}', shell: true } }] });
    const done = await t.waitTask(id);
    assert.equal(done.steps[0].status, 'failed');
    assert.equal(done.steps[0].result.rule, 'context.shell_text');
  });

  it('the dry run shows a placeholder for a value not known yet', async () => {
    const id = await t.createTask({
      dry_run: true,
      steps: [
        { action: 'run_command', parameters: { command: ['touch', 'made-by-step-1'] }, save_as: 'made' },
        { action: 'run_command', parameters: { command: 'touch out-{{context.made.exit_code}}' } },
        { action: 'list_files', parameters: { path: 'dir-{{context.made.exit_code}}' } },
      ],
    });
    const dry = await t.waitTask(id);
    assert.equal(dry.status, 'completed', JSON.stringify(dry.steps.map((s: any) => s.error)));
    assert.equal(dry.steps[0].note, 'dry_run', 'a step with side effects does not run');
    assert.equal(dry.steps[2].note, 'dry_run', 'a read-only adapter waiting for an unknown value does not run either');
    assert.equal(dry.steps[2].result.would_run.parameters.path, 'dir-{{context.made.exit_code}}');
    const plan = dry.steps[1].result.would_run;
    assert.deepEqual(plan.argv, [['touch', 'out-{{context.made.exit_code}}']]);
    assert.deepEqual(plan.unresolved, ['{{context.made.exit_code}}']);
    assert.equal(existsSync(join(ws(), 'made-by-step-1')), false);
  });

  it('task_confirm refuses a step whose value changed since the dry run showed it; nothing is written', async () => {
    writeFileSync(join(ws(), 'dest.txt'), 'copy.txt\n');
    writeFileSync(join(ws(), 'notes.txt'), 'notes\n');
    // Outside every root and not under /tmp (commands get a private /tmp there).
    const outside = `/var/tmp-wb-tmpl-${process.pid}.txt`;
    const id = await t.createTask({
      dry_run: true,
      steps: [
        { action: 'run_command', parameters: { command: ['cat', 'dest.txt'] }, save_as: 'dest' },
        { action: 'run_command', parameters: { command: 'cp notes.txt {{context.dest.stdout}}' } },
      ],
    });
    const dry = await t.waitTask(id);
    assert.equal(dry.status, 'completed', JSON.stringify(dry.steps.map((s: any) => s.error)));
    assert.deepEqual(dry.steps[1].result.would_run.argv, [['cp', 'notes.txt', 'copy.txt']]);
    writeFileSync(join(ws(), 'dest.txt'), `${outside}\n`);
    assert.equal((await t.call('task_confirm', { task_id: id })).isError, false);
    const real = await t.waitTask(id, ['completed', 'paused', 'failed']);
    assert.equal(real.status, 'paused');
    assert.equal(real.steps[1].status, 'failed');
    // The dry run showed `cp notes.txt copy.txt`: the run does not silently become another command
    // (a placeholder value is checked against the policy at run time: tasks-confirm-plan.test.ts).
    assert.equal(real.steps[1].result.rule, 'task.plan_changed', JSON.stringify(real.steps[1].result));
    assert.equal(existsSync(outside), false, 'nothing was written outside the workspace');
    assert.equal(existsSync(join(ws(), 'copy.txt')), false);
  });
});

describe('task templating into UFO execute_command (a string-only command tool)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tmpl-ufo-');
    t = taskApp(dirs, 'workspace-write', { compat: { ufo: true } });
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  for (const [i, [label, name]] of INJECTED_NAMES.entries()) {
    it(`a listed file name stays one argument of execute_command (${label})`, async () => {
      mkdirSync(join(dirs.workspace, `u${i}`));
      writeFileSync(join(dirs.workspace, `u${i}`, name), `ufo ${i}\n`);
      const res = await t.call('task_create', {
        steps: [
          { action: 'run_command', parameters: { command: ['ls', `u${i}`] }, save_as: 'files' },
          { action: 'execute_command', parameters: { command: `cat u${i}/{{context.files.stdout}}` }, save_as: 'out' },
        ],
      });
      const done = await t.waitTask(res.structuredContent.task_id as string, ['completed', 'paused', 'failed']);
      assert.equal(done.status, 'completed', JSON.stringify(done.steps.map((s: any) => s.error)));
      assert.equal(done.context.out.stdout, `ufo ${i}\n`);
      const found = readdirSync(dirs.workspace, { recursive: true }).map(String).filter((p) => p.split('/').pop() === MARK);
      assert.deepEqual(found, [], 'the injected command never ran');
    });
  }
});

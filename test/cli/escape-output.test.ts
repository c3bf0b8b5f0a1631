// Output that cannot lie (SPEC §4.1a): control characters in job names, commands and JSON-RPC ids
// are escaped in every human-readable CLI output (`jobs ls`, `jobs show`, `audit`), so they cannot
// forge lines or send terminal escapes; --json stays exact JSON with the original text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { invokeTool } from '../../src/control/invoke.js';
import { escapeControl } from '../../src/shared/escape-text.js';
import { testApp } from '../helpers/app.js';
import { MAIN } from '../helpers/server-process.js';

const FORGED = '01FORGEDJOB000000000000000  succeeded exit=0  2026-01-01T00:00:00Z  rm -rf nothing';
const NAME = `nice\n${FORGED}\u001b[2J\u001b]0;title\u0007 c1\u009b31m bidi\u202eevil ls\u2028x`;
const RPC_ID = `7\n2026-01-01T00:00:00.000Z  ok       forged_tool  1.0ms  -  stdio  x\u001b[31m\u009b2J\u202e`;
const TASK_NAME = `task\u009b2J\u202egnp.exe\u2029\u2066x\u007f`;
/** Output in which a terminal would act on nothing: no C0 but newline, no DEL, C1, line separators or bidi controls. */
const TERMINAL_ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Attacks: text with controls and what must never reach the terminal raw. */
const ESCAPES: Array<[string, string, string]> = [
  ['newline', 'a\nb', 'a\\nb'],
  ['carriage return', 'a\rb', 'a\\rb'],
  ['ESC (CSI)', '\u001b[2J', '\\e[2J'],
  ['BEL', 'x\u0007', 'x\\x07'],
  ['C1 CSI', '\u009b31m', '\\x9b31m'],
  ['DEL', 'a\u007f', 'a\\x7f'],
  ['NUL', 'a\u0000', 'a\\x00'],
  ['line separator', 'a\u2028b', 'a\\u2028b'],
  ['bidi override', 'a\u202eb', 'a\\u202eb'],
  ['backslash (so escapes stay unambiguous)', 'a\\nb', 'a\\\\nb'],
];
/** Legit text that must come out unchanged. */
const UNCHANGED = ['npm run build', 'grep -r "x y" src/', 'ümlaut ✓ 日本語', 'a|b > c'];

describe('escapeControl', () => {
  for (const [name, input, shown] of ESCAPES) test(`escapes ${name}`, () => assert.equal(escapeControl(input), shown));
  for (const text of UNCHANGED) test(`keeps ${JSON.stringify(text)}`, () => assert.equal(escapeControl(text), text));
});

describe('human-readable CLI output escapes control characters', () => {
  const app = testApp('workspace-write');
  let jobId = '';
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, WORKBENCH_HOME: app.state }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const noRawControls = (out: string) => assert.doesNotMatch(out, TERMINAL_ACTIVE, 'no raw control characters (newlines end lines only)');
  let taskId = '';

  before(async () => {
    const started = await app.call('job_start', { command: ['sh', '-c', 'echo \u001b[2J done'], name: NAME, cwd: app.ws });
    jobId = started.s.job_id as string;
    assert.ok(jobId, JSON.stringify(started.s));
    await app.call('job_wait', { job_id: jobId });
    const def = app.app.tools.find((t) => t.name === 'policy_check') ?? app.app.tools[0]!;
    await invokeTool(app.app.deps, app.app.gates, def, { command: ['ls'] }, { transport: 'stdio', requestId: RPC_ID });
    const task = await app.call('task_create', { name: TASK_NAME, steps: [{ action: 'run_command', parameters: { command: ['true'] } }], dry_run: true });
    taskId = task.s.task_id as string;
    assert.ok(taskId, JSON.stringify(task.s));
  });
  after(() => app.close());

  test('jobs ls: one line per job, the name cannot forge another', () => {
    const out = cli('jobs', 'ls');
    noRawControls(out);
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 1, out);
    assert.ok(lines[0]!.startsWith(jobId));
    assert.ok(!lines.some((l) => l.startsWith('01FORGEDJOB')), 'no forged line');
    assert.match(out, /\[nice\\n01FORGEDJOB/);
  });

  test('jobs show: every field on its own line, escaped', () => {
    const out = cli('jobs', 'show', jobId);
    noRawControls(out);
    assert.ok(out.trimEnd().split('\n').every((l) => /^[a-z_]+: /.test(l)), out);
    assert.match(out, /name: nice\\n01FORGEDJOB.*\\e\[2J\\e\]0;title\\x07/);
  });

  test('jobs ls --json and jobs show --json: exact JSON with the original text, nothing a terminal acts on (F7)', () => {
    const out = cli('jobs', 'ls', '--json');
    noRawControls(out);
    assert.match(out, /\\u009b31m bidi\\u202eevil ls\\u2028x/);
    const views = JSON.parse(out) as Array<{ name: string }>;
    assert.equal(views[0]!.name, NAME);
    const one = cli('jobs', 'show', jobId, '--json');
    noRawControls(one);
    assert.equal((JSON.parse(one) as { name: string }).name, NAME);
  });

  test('tasks ls and tasks show (JSON): exact text, nothing a terminal acts on (F7)', () => {
    for (const out of [cli('tasks', 'ls'), cli('tasks', 'show', taskId)]) {
      noRawControls(out);
      assert.ok(out.includes('\\u009b2J\\u202egnp.exe\\u2029\\u2066x\\u007f'), out);
      const parsed = JSON.parse(out) as unknown;
      assert.ok(JSON.stringify(parsed).includes(JSON.stringify(TASK_NAME).slice(1, -1)), 'the name parses back exactly');
    }
  });

  test('audit: a JSON-RPC id cannot forge an audit line', () => {
    const out = cli('audit');
    noRawControls(out);
    assert.ok(!out.split('\n').some((l) => l.startsWith('2026-01-01T00:00:00.000Z')), out);
    assert.match(out, /7\\n2026-01-01T00:00:00\.000Z {2}ok.*x\\e\[31m/);
    const jsonOut = cli('audit', '--json');
    noRawControls(jsonOut);
    const json = jsonOut.trimEnd().split('\n').map((l) => JSON.parse(l) as { requestId: string });
    assert.ok(json.some((r) => r.requestId === RPC_ID), 'JSON keeps the exact id');
  });

  test('jobs logs: on a terminal control sequences are escaped (lines kept); --raw and a pipe give the output as it is (F7)', async () => {
    const started = await app.call('job_start', { command: ['sh', '-c', "printf 'one\\033]0;pwned\\007\\033[2J\\302\\23331m\\ttab\\ntwo\\n'"], cwd: app.ws });
    const id = started.s.job_id as string;
    await app.call('job_wait', { job_id: id });
    const quote = (x: string) => `'${x.replace(/'/g, `'\\''`)}'`;
    // A real pseudo-terminal (util-linux script): stdout.isTTY is true there, as at a person's shell.
    const onTty = (...args: string[]) => {
      const cmd = [process.execPath, MAIN, 'jobs', 'logs', id, ...args].map(quote).join(' ');
      const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { env: { ...process.env, WORKBENCH_HOME: app.state }, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.replace(/\r\n/g, '\n');
    };
    const shown = onTty();
    assert.doesNotMatch(shown, /[\u001b\u0007\u009b]/, `raw control sequences reached the terminal: ${JSON.stringify(shown)}`);
    assert.ok(shown.includes('one\\e]0;pwned\\x07\\e[2J\\x9b31m\ttab\ntwo\n'), JSON.stringify(shown));
    const raw = onTty('--raw');
    assert.ok(raw.includes('one\u001b]0;pwned\u0007\u001b[2J\u009b31m\ttab\ntwo\n'), JSON.stringify(raw));
    assert.equal(cli('jobs', 'logs', id), 'one\u001b]0;pwned\u0007\u001b[2J\u009b31m\ttab\ntwo\n', 'a pipe gets the output as it is');
  });
});

// Effects, not verdicts: attacks run through the real run_command (policy + sandbox) and the test
// checks what happened on the host — no marker file, no secret in any output, no connection.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

const SECRET = 'wb-test-secret-9f3a1c7e55';
const M = (dir: string, n: string) => join(dir, `marker-${n}`);

/** A loopback listener that counts connections. */
async function listener(): Promise<{ port: number; count: () => number; close(): void }> {
  let n = 0;
  const srv: Server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  return { port, count: () => n, close: () => srv.close() };
}

function readOnlyAttacks(ws: string, out: string, port: number): Array<[string, unknown]> {
  const m = (n: string) => M(out, n);
  return [
    ['find -exec', ['find', '.', '-maxdepth', '0', '-exec', 'touch', m('find'), ';']],
    ['find -fprint', ['find', '.', '-maxdepth', '0', '-fprint', m('fprint')]],
    ['sort --compress-program', ['sort', '-S', '1K', '--compress-program=sh', 'cmds.txt']],
    ['sort --compress-prog (abbrev)', ['sort', '-S', '1K', '--compress-prog=sh', 'cmds.txt']],
    ['sort -o outside', ['sort', '-o', m('sorto'), 'cmds.txt']],
    ['git -c alias', ['git', '-c', `alias.x=!touch ${m('gitalias')}`, 'x']],
    ['tar checkpoint-action', ['tar', '-cf', '/dev/null', '--checkpoint=1', `--checkpoint-action=exec=touch ${m('tar')}`, 'cmds.txt']],
    ['awk system()', ['awk', `BEGIN{system("touch ${m('awk')}")}`]],
    ['sed e command', ['sed', '-n', `1e touch ${m('sed')}`, 'cmds.txt']],
    ['sed w command', ['sed', '-n', `w ${m('sedw')}`, 'cmds.txt']],
    ['xargs', { command: ['xargs', 'touch'], stdin: m('xargs') }],
    ['env wrapper', ['env', 'touch', m('env')]],
    ['nice wrapper', ['nice', 'touch', m('nice')]],
    ['timeout wrapper', ['timeout', '5', 'touch', m('timeout')]],
    ['python -c', ['python3', '-c', `open("${m('py')}","w")`]],
    ['node -e', ['node', '-e', `require("fs").writeFileSync("${m('node')}","x")`]],
    ['sh -c', ['sh', '-c', `touch ${m('sh')}`]],
    ['touch in read-only', ['touch', join(ws, 'ro-touch')]],
    ['string with ;', `ls; touch ${m('semi')}`],
    ['string with $()', `echo $(touch ${m('subst')})`],
    ['workspace ./ls', ['./evil-ls']],
    ['relative script path', ['./evil-ls', m('evil')]],
    ['curl to loopback', ['curl', '-s', `http://127.0.0.1:${port}/`]],
    ['cat /etc/shadow', ['cat', '/etc/shadow']],
    ['cat /proc/self/environ', ['cat', '/proc/self/environ']],
    ['printenv secret', ['printenv', 'WB_TEST_SECRET_TOKEN']],
    ['state dir token', ['cat', '../state/api-token']],
  ];
}

describe('attack effects in read-only', () => {
  const t = testApp('read-only');
  let net: Awaited<ReturnType<typeof listener>>;
  before(async () => {
    process.env.WB_TEST_SECRET_TOKEN = SECRET;
    net = await listener();
    writeFileSync(join(t.state, 'api-token'), 'wb-api-token-value-123456\n', { mode: 0o600 });
    writeFileSync(join(t.ws, 'cmds.txt'), `${Array.from({ length: 400 }, () => `touch ${M(t.outside, 'sortcmp')}`).join('\n')}\n`);
    writeFileSync(join(t.ws, 'evil-ls'), `#!/bin/sh\ntouch ${M(t.outside, 'evil')}\n`);
    chmodSync(join(t.ws, 'evil-ls'), 0o755);
  });
  after(async () => {
    delete process.env.WB_TEST_SECRET_TOKEN;
    net.close();
    await t.close();
  });

  test('every attack is refused or contained, with no effect on the host', async () => {
    const outputs: string[] = [];
    for (const [name, args] of readOnlyAttacks(t.ws, t.outside, net.port)) {
      const params = Array.isArray(args) || typeof args === 'string' ? { command: args, cwd: t.ws } : { ...(args as object), cwd: t.ws };
      const r = await t.call('run_command', params);
      outputs.push(`${name}: ${r.text}`);
      assert.equal(r.s.success, false, `${name} must not succeed: ${r.text}`);
    }
    assert.deepEqual(readdirSync(t.outside), [], 'no marker file appeared');
    assert.equal(existsSync(join(t.ws, 'ro-touch')), false);
    const all = outputs.join('\n');
    assert.ok(!all.includes(SECRET), 'the secret never appears');
    assert.ok(!all.includes('wb-api-token-value-123456'), 'the API token never appears');
    assert.ok(!/^root:[^:*!x]/m.test(all), 'no password hash from /etc/shadow');
    assert.equal(net.count(), 0, 'the loopback listener saw no connection');
  });

  test('legitimate diagnostics still work and leak no secret', async () => {
    for (const cmd of [['env'], ['ls', '-la'], 'grep touch cmds.txt | sort | uniq -c | sort -rn | head -3', ['cat', '/etc/os-release']]) {
      const r = await t.call('run_command', { command: cmd, cwd: t.ws });
      assert.equal(r.s.success, true, `${JSON.stringify(cmd)}: ${r.text}`);
      assert.ok(!String(r.s.stdout).includes(SECRET));
    }
  });
});

describe('a malicious repository cannot run programs through git (read-only)', () => {
  const t = testApp('read-only');
  before(() => {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: t.ws, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: t.base } });
    git('init', '-q');
    git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'init');
    writeFileSync(join(t.ws, 'f.txt'), 'one\n');
    git('add', 'f.txt');
    git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '-m', 'f');
    writeFileSync(join(t.ws, 'f.txt'), 'two\n');
    const evil = join(t.ws, 'evil.sh');
    writeFileSync(evil, `#!/bin/sh\ntouch ${M(t.outside, 'git')}-$(basename "$0")-$$\ntouch ${join(t.ws, 'pwned')}\n`);
    chmodSync(evil, 0o755);
    mkdirSync(join(t.ws, '.git', 'hooks'), { recursive: true });
    for (const hook of ['post-checkout', 'pre-commit', 'fsmonitor-watchman', 'reference-transaction']) {
      writeFileSync(join(t.ws, '.git', 'hooks', hook), `#!/bin/sh\n${evil}\n`);
      chmodSync(join(t.ws, '.git', 'hooks', hook), 0o755);
    }
    git('config', 'core.fsmonitor', evil);
    git('config', 'core.pager', evil);
    git('config', 'diff.external', evil);
    git('config', 'core.sshCommand', evil);
    git('config', 'alias.st', `!${evil}`);
  });
  after(() => t.close());

  // The repository's config names programs: it is refused before git runs (git.unsafe_config).
  test('git status, log and diff are refused and create nothing', async () => {
    for (const cmd of [['git', 'status'], ['git', 'log', '--oneline', '-5'], ['git', 'diff'], ['git', 'show', '--stat', 'HEAD']]) {
      const r = await t.call('run_command', { command: cmd, cwd: t.ws });
      assert.equal(r.s.rule, 'git.unsafe_config', `${cmd.join(' ')}: ${r.text}`);
    }
    const alias = await t.call('run_command', { command: ['git', 'st'], cwd: t.ws });
    assert.equal(alias.s.success, false, 'a repo alias that runs a program does not run');
    assert.deepEqual(readdirSync(t.outside), [], 'no hook, pager, fsmonitor or external diff ran');
    assert.equal(existsSync(join(t.ws, 'pwned')), false);
  });

  test('the git adapters are refused too and create nothing', async () => {
    for (const [tool, args] of [['git_status', { path: t.ws }], ['git_log', { path: t.ws }], ['git_diff', { path: t.ws }]] as const) {
      const r = await t.call(tool, args);
      assert.equal(r.s.rule, 'git.unsafe_config', `${tool}: ${r.text}`);
    }
    assert.deepEqual(readdirSync(t.outside), []);
    assert.equal(existsSync(join(t.ws, 'pwned')), false);
  });

  test('with the settings removed, git works and the planted hooks still do not run', async () => {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: t.ws, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: t.base } });
    for (const k of ['core.fsmonitor', 'core.pager', 'diff.external', 'core.sshCommand', 'alias.st']) git('config', '--unset', k);
    for (const cmd of [['git', 'status'], ['git', 'log', '--oneline', '-5'], ['git', 'diff'], ['git', 'show', '--stat', 'HEAD']]) {
      const r = await t.call('run_command', { command: cmd, cwd: t.ws });
      assert.equal(r.s.success, true, `${cmd.join(' ')}: ${r.text}`);
    }
    const diff = await t.call('run_command', { command: ['git', 'diff'], cwd: t.ws });
    assert.match(String(diff.s.stdout), /-one\n\+two/);
    for (const tool of ['git_status', 'git_log', 'git_diff']) assert.equal((await t.call(tool, { path: t.ws })).s.success, true, tool);
    assert.deepEqual(readdirSync(t.outside), [], 'a planted hook ran');
    assert.equal(existsSync(join(t.ws, 'pwned')), false);
  });
});

describe('attack effects in workspace-write: the sandbox contains what the policy allows', () => {
  const t = testApp('workspace-write');
  let net: Awaited<ReturnType<typeof listener>>;
  before(async () => {
    process.env.WB_TEST_SECRET_TOKEN = SECRET;
    net = await listener();
    writeFileSync(join(t.state, 'api-token'), 'wb-api-token-value-654321\n', { mode: 0o600 });
  });
  after(async () => {
    delete process.env.WB_TEST_SECRET_TOKEN;
    net.close();
    await t.close();
  });

  test('shell writes outside the workspace do not reach the host; no network; no secrets', async () => {
    const outputs: string[] = [];
    const cmds = [
      ['sh', '-c', `touch ${M(t.outside, 'sh')}; echo done`],
      ['python3', '-c', `open("${M(t.outside, 'py')}","w")`],
      ['sh', '-c', `cat /etc/shadow; cat ${join(t.state, 'api-token')}; env; cat /proc/1/environ`],
      ['sh', '-c', `exec 3<>/dev/tcp/127.0.0.1/${net.port} || true`],
      ['python3', '-c', `import socket; socket.create_connection(("127.0.0.1", ${net.port}), 2)`],
      ['sh', '-c', `touch /usr/${'wb-marker'}; touch /etc/wb-marker`],
    ];
    for (const c of cmds) {
      const r = await t.call('run_command', { command: c, cwd: t.ws, shell: false });
      outputs.push(r.text);
    }
    assert.deepEqual(readdirSync(t.outside), [], 'nothing was written outside the workspace');
    assert.equal(existsSync('/usr/wb-marker') || existsSync('/etc/wb-marker'), false);
    const all = outputs.join('\n');
    assert.ok(!all.includes(SECRET), 'no secret variable');
    assert.ok(!all.includes('wb-api-token-value-654321'), 'no API token');
    assert.equal(net.count(), 0, 'no connection reached the loopback listener');
  });

  test('legitimate writes inside the workspace work', async () => {
    const r = await t.call('run_command', { command: ['sh', '-c', 'echo hi > made.txt && cat made.txt'], cwd: t.ws });
    assert.equal(r.s.success, true, r.text);
    assert.equal(existsSync(join(t.ws, 'made.txt')), true);
  });
});

// `workbench audit` lists recent calls; the tool_* log lines carry the observability fields; secrets never land in either.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MAIN, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { postJson } from './http-client.js';

describe('audit and observability', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  const audit = (...args: string[]) =>
    execFileSync(process.execPath, [MAIN, 'audit', ...args], { env: { ...process.env, WORKBENCH_HOME: dirs.state }, encoding: 'utf8' });
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({
      workspace: dirs.workspace,
      state: dirs.state,
      configToml: '[compat]\nufo = true\n[log]\nargs = true\nlevel = "info"\n',
      env: { LOG_LEVEL: 'info' },
    });
    const call = (action: string, parameters: unknown) => postJson(server.base, server.token, '/v1/action', { action, parameters });
    await call('policy_check', { command: 'ls' });
    await call('run_command', { command: ['ls', `${dirs.workspace}/nope`] });
    await call('run_command', { command: ['rm', '-rf', '/'] });
    await call('execute_command', { command: 'echo hi', api_key: server.token });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  test('--json prints the recent calls, newest first', () => {
    const rows = audit('--limit', '3', '--json').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r) => r.tool), ['execute_command', 'run_command', 'run_command']);
    assert.deepEqual(rows.map((r) => r.outcome), ['success', 'error', 'failure']);
    assert.equal(rows[1].errorClass, 'policy_denied');
    assert.equal(rows[0].transport, 'rest');
    assert.ok(rows[0].requestId && rows[0].durationMs >= 0 && rows[0].resultBytes > 0);
  });

  test('the human form has one line per call', () => {
    const lines = audit().trim().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[3]!, /ok\s+policy_check/);
    assert.match(lines[1]!, /error\s+run_command.*policy_denied/);
  });

  test('bad --limit is refused with exit 2', () => {
    assert.throws(() => audit('--limit', 'x'), (err: { status: number }) => err.status === 2);
  });

  test('tool_start/tool_end/tool_fail lines carry the fields; the api_key is redacted everywhere', () => {
    const lines = server.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const end = lines.find((l) => l.event === 'tool_end' && l.tool === 'execute_command');
    assert.ok(end, 'a tool_end line for execute_command');
    for (const key of ['requestId', 'tool', 'durationMs', 'resultBytes', 'truncated', 'transport']) assert.ok(key in end, key);
    const fail = lines.find((l) => l.event === 'tool_fail');
    assert.equal(fail.errorClass, 'policy_denied');
    const start = lines.find((l) => l.event === 'tool_start' && l.tool === 'execute_command');
    assert.equal(start.args.api_key, '[redacted]');
    assert.ok(!server.stderr().includes(server.token), 'the token never appears in the log');
    assert.ok(!audit('--json', '--limit', '100').includes(server.token), 'nor in the audit table');
  });
});

// REST routes over the built `workbench serve`: /metrics, /v1/action, /v1/commands, their status codes and limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { postJson, raw } from './http-client.js';

// One main-lane slot and no queue: a second main-lane call while one runs is busy, deterministically.
const CONFIG = '[control]\nmax_inflight = 1\nmax_queue = 0\n';

describe('REST routes', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  const post = (path: string, body: unknown) => postJson(server.base, server.token, path, body);
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, configToml: CONFIG });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  test('POST /v1/action answers 200 with the structured result', async () => {
    const r = await post('/v1/action', { action: 'policy_check', parameters: { command: 'ls -la' } });
    assert.equal(r.status, 200);
    assert.equal(r.json.success, true);
    assert.equal(r.json.allowed, true);
    assert.ok(r.headers['x-request-id']);
  });

  test("a tool's own failure is still 200 (the tool answered)", async () => {
    const denied = await post('/v1/action', { action: 'run_command', parameters: { command: ['rm', '-rf', '/'] } });
    assert.equal(denied.status, 200);
    assert.equal(denied.json.success, false);
    assert.equal(denied.json.error_class, 'policy_denied');
    const bad = await post('/v1/action', { action: 'run_command', parameters: { command: 42 } });
    assert.equal(bad.status, 200);
    assert.equal(bad.json.error_class, 'invalid_params');
    assert.match(bad.json.error, /command/);
  });

  test('400 for a body that is not JSON or has the wrong shape, 404 for an unknown action', async () => {
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const notJson = await raw(server.base, { path: '/v1/action', headers: auth, body: '{"action": ' });
    assert.equal(notJson.status, 400);
    assert.match(JSON.parse(notJson.text).error, /not valid JSON/);
    for (const body of [[], 'policy_check', { action: 7 }, { parameters: {} }, { action: 'policy_check', parameters: [1] }]) {
      const r = await post('/v1/action', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.json.error, /action|parameters/);
    }
    const unknown = await post('/v1/action', { action: 'no_such_tool', parameters: {} });
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error, /unknown action/);
  });

  test('405 for the wrong method, 401 without the token, 413 over 4 MiB', async () => {
    const get = await raw(server.base, { method: 'GET', path: '/v1/action', headers: { authorization: `Bearer ${server.token}` } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    const noToken = await raw(server.base, { path: '/v1/action', body: '{}' });
    assert.equal(noToken.status, 401);
    const metricsNoToken = await raw(server.base, { method: 'GET', path: '/metrics' });
    assert.equal(metricsNoToken.status, 401);
    const huge = await raw(server.base, { path: '/v1/commands', headers: { authorization: `Bearer ${server.token}` }, body: Buffer.alloc(5 * 1024 * 1024, 0x20) });
    assert.equal(huge.status, 413);
  });

  test('429 with Retry-After when the main lane is full; the status lane still answers', async () => {
    const slow = post('/v1/action', { action: 'run_command', parameters: { command: ['sleep', '1.5'] } });
    await waitFor(async () => /workbench_inflight_calls\{lane="main"\} 1/.test((await metricsText()) ?? ''), 5000, 'the sleep to hold the main lane');
    const busy = await post('/v1/action', { action: 'run_command', parameters: { command: ['true'] } });
    assert.equal(busy.status, 429);
    assert.equal(busy.headers['retry-after'], '1');
    assert.equal(busy.json.error_class, 'busy');
    const status = await post('/v1/action', { action: 'policy_check', parameters: { command: 'uname -a' } });
    assert.equal(status.status, 200);
    assert.equal((await slow).json.success, true);
  });

  test('POST /v1/commands answers per call_id in order; invalid items fail, the batch goes on', async () => {
    const r = await post('/v1/commands', [
      { tool_name: 'policy_check', parameters: { command: 'ls' }, call_id: 'a' },
      { tool_name: 'no_such_tool', parameters: {}, call_id: 2 },
      { tool_name: 'policy_check', parameters: { command: 'rm -rf /' }, call_id: 3 },
      { parameters: {}, call_id: 'no-name' },
      { tool_name: 'policy_check', parameters: { command: 'ls' } },
      'not an object',
      { tool_name: 'run_command', tool_type: 'action', parameters: { command: ['echo', 'hi'] }, call_id: 'echo' },
      { tool_name: 'run_command', parameters: { command: ['false'] }, call_id: 8 },
    ]);
    assert.equal(r.status, 200);
    const a = r.json as Array<{ call_id: unknown; status: string; result: any; error: string | null }>;
    assert.deepEqual(a.map((x) => x.call_id), ['a', 2, 3, 'no-name', null, null, 'echo', 8]);
    assert.deepEqual(a.map((x) => x.status), ['success', 'failure', 'success', 'failure', 'failure', 'failure', 'success', 'failure']);
    assert.equal(a[0]!.result.allowed, true);
    assert.equal(a[0]!.error, null);
    assert.match(a[1]!.error!, /unknown tool/);
    assert.equal(a[2]!.result.allowed, false, 'policy_check answered: the check itself succeeded');
    assert.match(a[3]!.error!, /tool_name/);
    assert.match(a[4]!.error!, /call_id/);
    assert.equal(a[6]!.result.stdout, 'hi\n');
    assert.equal(a[7]!.result.exit_code, 1);
    assert.match(a[7]!.error!, /exited with code 1/);
  });

  test('/v1/commands: after a busy refusal the rest are skipped', async () => {
    const slow = post('/v1/action', { action: 'run_command', parameters: { command: ['sleep', '1.5'] } });
    await waitFor(async () => /workbench_inflight_calls\{lane="main"\} 1/.test((await metricsText()) ?? ''), 5000, 'the sleep to hold the main lane');
    const r = await post('/v1/commands', [
      { tool_name: 'policy_check', parameters: { command: 'ls' }, call_id: 1 },
      { tool_name: 'run_command', parameters: { command: ['true'] }, call_id: 2 },
      { tool_name: 'policy_check', parameters: { command: 'ls' }, call_id: 3 },
    ]);
    await slow;
    assert.equal(r.status, 200);
    assert.equal(r.headers['retry-after'], '1');
    assert.deepEqual(r.json.map((x: { status: string }) => x.status), ['success', 'failure', 'skipped']);
    assert.equal(r.json[1].result.error_class, 'busy');
    assert.match(r.json[2].error, /not run/);
    const tooMany = await post('/v1/commands', Array.from({ length: 101 }, (_, i) => ({ tool_name: 'policy_check', parameters: { command: 'ls' }, call_id: i })));
    assert.equal(tooMany.status, 400);
    assert.equal((await post('/v1/commands', { tool_name: 'x' })).status, 400);
  });

  test('GET /metrics: Prometheus text with calls, durations, errors, lanes and jobs', async () => {
    const text = (await metricsText())!;
    assert.match(text, /workbench_tool_calls_total\{tool="policy_check",outcome="success"\} \d+/);
    assert.match(text, /workbench_tool_errors_total\{tool="run_command",error_class="busy"\} [1-9]/);
    assert.match(text, /workbench_tool_duration_seconds_bucket\{le="0\.005",tool="policy_check",lane="status"\}/);
    assert.match(text, /workbench_queued_calls\{lane="status"\} 0/);
    assert.match(text, /workbench_jobs\{status="running"\} \d+/);
  });

  async function metricsText(): Promise<string | undefined> {
    const r = await raw(server.base, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${server.token}` } });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /text\/plain/);
    return r.text;
  }
});

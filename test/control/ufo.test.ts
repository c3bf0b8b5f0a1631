// UFO compatibility: /ufo/mcp with only execute_command and get_system_info, authenticated by the api_key argument.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { postJson, raw } from './http-client.js';

type Result = { structuredContent: Record<string, any>; isError?: boolean; content: Array<{ text: string }> };

describe('[compat] ufo', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  let ufo: Client;
  const call = async (name: string, args: Record<string, unknown>) => (await ufo.callTool({ name, arguments: args }, { timeout: 60_000 })) as Result;
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, configToml: '[compat]\nufo = true\n' });
    // No bearer header: UFO's client authenticates with the api_key argument only.
    ufo = new Client({ name: 'ufo-linux-agent', version: '1.0.0' });
    await ufo.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/ufo/mcp`)));
  });
  after(async () => {
    await ufo?.close();
    await server?.stop();
    dirs?.cleanup();
  });

  test('/ufo/mcp lists exactly the two UFO tools', async () => {
    const { tools } = await ufo.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['execute_command', 'get_system_info']);
    const exec = tools.find((t) => t.name === 'execute_command')!;
    assert.deepEqual(Object.keys(exec.inputSchema.properties ?? {}).sort(), ['api_key', 'command', 'cwd', 'timeout']);
  });

  test('execute_command round-trips the documented shape', async () => {
    const r = await call('execute_command', { command: 'echo "hello ufo"', timeout: 10, api_key: server.token });
    assert.equal(r.isError ?? false, false);
    assert.equal(r.structuredContent.success, true);
    assert.equal(r.structuredContent.exit_code, 0);
    assert.equal(r.structuredContent.stdout, 'hello ufo\n');
    assert.equal(r.structuredContent.stderr, '');
    const failed = await call('execute_command', { command: `ls ${dirs.workspace}/no-such-dir`, api_key: server.token });
    assert.equal(failed.structuredContent.success, false);
    assert.equal(failed.structuredContent.exit_code, 2);
    assert.match(failed.structuredContent.stderr, /No such file/);
  });

  test('a timeout over 30 s runs as an awaited durable job', async () => {
    const r = await call('execute_command', { command: 'echo from-a-job', timeout: 500, api_key: server.token });
    assert.equal(r.structuredContent.success, true, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.stdout, 'from-a-job\n');
    assert.equal(r.structuredContent.timeout_s, 120, 'clamped to 120 like UFO');
  });

  test('get_system_info returns uname, uptime, memory and disk text', async () => {
    const r = await call('get_system_info', { api_key: server.token });
    assert.equal(r.isError ?? false, false);
    const s = r.structuredContent;
    assert.match(s.uname, /Linux/);
    for (const key of ['uptime', 'memory', 'disk']) assert.equal(typeof s[key], 'string', key);
    assert.match(s.memory, /Mem/);
    assert.match(s.disk, /Filesystem|Error/);
  });

  test('a wrong or missing api_key is refused (fail-closed)', async () => {
    for (const args of [{ command: 'echo hi' }, { command: 'echo hi', api_key: 'wrong-key-wrong-key' }, { command: 'echo hi', api_key: '' }]) {
      const r = await call('execute_command', args);
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent.success, false);
      assert.match(r.structuredContent.error, /Authentication failed/);
      assert.equal(r.structuredContent.rule, 'auth.api_key');
    }
    const info = await call('get_system_info', {});
    assert.match(info.structuredContent.error, /Authentication failed/);
  });

  test('the allowlist is enforced: rm -rf / and cat /etc/shadow are refused', async () => {
    const rm = await call('execute_command', { command: 'rm -rf /', api_key: server.token });
    assert.equal(rm.isError, true);
    assert.equal(rm.structuredContent.success, false);
    assert.equal(rm.structuredContent.error_class, 'policy_denied');
    const shadow = await call('execute_command', { command: 'cat /etc/shadow', api_key: server.token });
    assert.equal(shadow.isError, true);
    assert.match(shadow.structuredContent.error_class, /policy_denied|path_denied/);
    const chain = await call('execute_command', { command: 'ls; id', api_key: server.token });
    assert.equal(chain.structuredContent.success, false);
  });

  test('/ufo/mcp keeps the Host/Origin guard; its tools are not served there with only a bearer token', async () => {
    const evil = await raw(server.base, { path: '/ufo/mcp', headers: { host: 'evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(evil.status, 403);
    const origin = await raw(server.base, { path: '/ufo/mcp', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(origin.status, 403);
  });

  test('the main /mcp (bearer) also has the UFO tools; api_key is optional there but checked when given', async () => {
    const main = await connectHttp(server.url, server.token);
    try {
      const ok = (await main.callTool({ name: 'execute_command', arguments: { command: 'echo main' } })) as Result;
      assert.equal(ok.structuredContent.stdout, 'main\n');
      const wrong = (await main.callTool({ name: 'execute_command', arguments: { command: 'echo main', api_key: 'nope-nope-nope' } })) as Result;
      assert.equal(wrong.isError, true);
    } finally {
      await main.close();
    }
    const rest = await postJson(server.base, server.token, '/v1/action', { action: 'get_system_info', parameters: {} });
    assert.equal(rest.status, 200);
    assert.match(rest.json.uname, /Linux/);
  });
});

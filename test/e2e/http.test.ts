// End to end over Streamable HTTP: the built `workbench serve`, the SDK Client, and raw requests for the guards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import * as cases from './run-command.shared.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** A raw POST to the server with full control over the headers (fetch would rewrite Host). */
function rawPost(base: string, path: string, headers: Record<string, string>, body = INIT): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('workbench serve (workspace-write)', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  let client: Client;
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
    client = await connectHttp(server.url, server.token);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    dirs?.cleanup();
  });

  test('prints the listening line and serves /health without a token', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const res = await fetch(`${server.base}/health`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { status: string; version: string };
    assert.equal(body.status, 'ok');
  });
  test('no token → 401', async () => {
    const host = new URL(server.base).host;
    assert.equal((await rawPost(server.base, '/mcp', { host })).status, 401);
  });
  test('wrong token → 401', async () => {
    const host = new URL(server.base).host;
    assert.equal((await rawPost(server.base, '/mcp', { host, authorization: 'Bearer nope-not-the-token' })).status, 401);
  });
  test('Host: evil.example → 403 even with the token', async () => {
    const r = await rawPost(server.base, '/mcp', { host: 'evil.example', authorization: `Bearer ${server.token}` });
    assert.equal(r.status, 403);
  });
  test('Origin: http://evil.example with a good Host and token → 403', async () => {
    const host = new URL(server.base).host;
    const r = await rawPost(server.base, '/mcp', { host, origin: 'http://evil.example', authorization: `Bearer ${server.token}` });
    assert.equal(r.status, 403);
  });
  test('good Host, Origin and token → 200', async () => {
    const host = new URL(server.base).host;
    const r = await rawPost(server.base, '/mcp', { host, origin: `http://${host}`, authorization: `Bearer ${server.token}` });
    assert.equal(r.status, 200);
    assert.match(r.body, /"serverInfo"/);
  });
  test('the token file is 0600', async () => {
    const { statSync } = await import('node:fs');
    assert.equal(statSync(`${dirs.state}/api-token`).mode & 0o777, 0o600);
  });

  test('tools/list: every tool has an outputSchema', () => cases.listHasOutputSchemas(client));
  test('echo', () => cases.echoWorks(client, dirs.workspace));
  test('non-zero exit is data', () => cases.nonZeroExitIsData(client, dirs.workspace));
  test('missing executable is not_found', () => cases.missingExecutable(client, dirs.workspace));
  test('cwd outside the roots is path_denied', () => cases.cwdOutsideRoots(client));
  test('200 MB of output is capped', () => cases.hugeOutputIsCapped(client, dirs.workspace));
  test('timeout kills the whole tree', () => cases.timeoutKillsTree(client, dirs.workspace));
  test('timeout_ms over 30000 is refused', () => cases.longTimeoutRefused(client, dirs.workspace));
  test('client-side cancellation kills the tree', () => cases.cancellationKillsTree(client, dirs.workspace));
  test('SIGTERM: exits 0', async () => {
    const other = await startHttpServer({ workspace: dirs.workspace, state: `${dirs.root}/state2` });
    assert.equal(await other.stop('SIGTERM'), 0);
  });
});

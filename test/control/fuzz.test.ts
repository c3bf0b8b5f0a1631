// Fuzz: 10 000 malformed requests on /mcp, /ufo/mcp and the REST routes — zero crashes, every request answered.
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { pool, postJson, raw, rssMb, type RawRequest } from './http-client.js';

const COUNT = 10_000;
const PATHS = ['/mcp', '/v1/action', '/v1/commands', '/metrics', '/ufo/mcp', '/health', '/nope', '/mcp/../v1/action', '/%ff', '//mcp?x=1', '//[bad'];
const METHODS = ['POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'BREW'];

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function bodies(token: string): Array<string | Buffer> {
  const rpc = (o: unknown) => JSON.stringify(o);
  return [
    '', '{', '}', '[', 'null', 'true', '42', '"str"', '{"a":', '\u0000\u0001\u0002', '{"jsonrpc":"2.0"}',
    rpc({ jsonrpc: '2.0', id: {}, method: 5 }),
    rpc({ jsonrpc: '1.0', id: 1, method: 'tools/call', params: null }),
    rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42, arguments: 'x' } }),
    rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_command', arguments: { command: { $gt: 1 } } } }),
    rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_command', arguments: { command: 'id', api_key: ['x'] } } }),
    rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 7]),
    rpc({ action: null, parameters: 7 }),
    rpc({ action: 'policy_check', parameters: { command: ['a'.repeat(70_000)] } }),
    rpc({ action: '__proto__', parameters: { constructor: { prototype: {} } } }),
    rpc([{ tool_name: 'policy_check', call_id: { x: 1 } }, null, [], { tool_name: 'run_command', parameters: 'ls', call_id: 1 }]),
    rpc(Array.from({ length: 200 }, () => ({}))),
    '['.repeat(5000) + ']'.repeat(5000),
    `{"x":"${'\\u'.repeat(10)}"}`,
    Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x7b]),
    rpc({ api_key: token.slice(0, 5) }),
  ];
}

function headerVariants(token: string, host: string): Array<Record<string, string>> {
  const auth = { authorization: `Bearer ${token}` };
  return [
    { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    { ...auth, 'content-type': 'text/html' },
    { ...auth, accept: 'image/png' },
    { ...auth, 'content-type': 'application/json', 'mcp-protocol-version': '1999-01-01' },
    { ...auth, 'mcp-session-id': '../../etc/passwd', 'content-type': 'application/json' },
    { authorization: 'Bearer' },
    { authorization: `Basic ${token}` },
    { authorization: `Bearer ${token}x` },
    {},
    { ...auth, host: 'evil.example' },
    { ...auth, host: `${host}`, origin: 'null' },
    { ...auth, origin: 'http://localhost:1' },
    { ...auth, 'content-length': '5' },
    { ...auth, 'x-request-id': '\u00e9'.repeat(200).replace(/[^\x20-\x7e]/g, 'e') },
  ];
}

describe('fuzz: malformed HTTP requests', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, configToml: '[compat]\nufo = true\n' });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  test(`${COUNT} malformed requests: every one answered, no crash`, async () => {
    const rand = rng(6);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const host = new URL(server.base).host;
    const allBodies = bodies(server.token);
    const allHeaders = headerVariants(server.token, host);
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const statuses: Record<string, number> = {};
    const requests: RawRequest[] = Array.from({ length: COUNT }, (_, i) => {
      const headers = { ...pick(allHeaders) };
      let body: string | Buffer | undefined = pick(allBodies);
      const huge = i % 1000 === 7; // a few huge bodies (POST: an unknown method is refused by Node's parser before the body)
      const method = huge ? 'POST' : pick(METHODS);
      if (huge) body = Buffer.alloc(5 * 1024 * 1024, 0x5b);
      // GET/HEAD carry no body; an unknown method (BREW) is refused by Node's HTTP parser, which closes
      // the socket at once: a body still being written then meets a reset that no server code can avoid.
      if (method === 'GET' || method === 'HEAD' || method === 'BREW') body = undefined;
      if (headers['content-length'] && typeof body === 'string') body = body.padEnd(5, ' ').slice(0, 5);
      else delete headers['content-length'];
      // Node's parser answers an unknown method with 400 and closes: use a fresh connection for those.
      return { method, path: pick(PATHS), headers, body, agent: method === 'BREW' ? false : agent, timeoutMs: 20_000 };
    });
    const t0 = performance.now();
    await pool(COUNT, 32, async (i) => {
      const r = await raw(server.base, requests[i]!).catch((err: Error) => {
        if (process.env.FUZZ_DEBUG) process.stderr.write(`FAIL ${err.message} ${requests[i]!.method} ${requests[i]!.path} ${JSON.stringify(requests[i]!.headers)} ${String(requests[i]!.body).slice(0, 40)}\n`);
        return { status: `error ${err.message}` };
      });
      statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
    });
    agent.destroy();
    const garbage = await pool(50, 10, (i) => rawSocket(server.base, i));
    process.stderr.write(`fuzz: ${COUNT} requests in ${(performance.now() - t0).toFixed(0)} ms: ${JSON.stringify(statuses)}; raw garbage answered ${garbage.filter(Boolean).length}/50; rss ${rssMb(server.proc.pid!).toFixed(0)} MB\n`);
    assert.deepEqual(Object.keys(statuses).filter((s) => !/^\d{3}$/.test(s)), [], 'no request went unanswered');
    assert.equal(statuses['500'] ?? 0, 0, 'no internal errors');
    assert.equal(garbage.every(Boolean), true, 'even non-HTTP bytes get an answer (400)');
    assert.equal(server.proc.exitCode, null, 'the server is still running');
    const ok = await postJson(server.base, server.token, '/v1/action', { action: 'policy_check', parameters: { command: 'ls' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.allowed, true);
  });
});

/** Writes non-HTTP bytes on a raw socket; true when the server answered anything before closing. */
function rawSocket(base: string, i: number): Promise<boolean> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const s = connect(Number(u.port), u.hostname);
    let got = false;
    s.on('data', () => (got = true));
    s.on('error', () => resolve(got));
    s.on('close', () => resolve(got));
    s.setTimeout(10_000, () => s.destroy());
    s.write(i % 2 ? '\u0000\u0001GARBAGE\r\n\r\n' : `POST /v1/action HTTP/1.1\r\nHost: ${u.host}\r\nContent-Length: -1\r\n\r\n`);
  });
}

// Sessions over HTTP: 20 SDK clients at once each get their own answers, disconnected clients leave
// nothing behind (RSS does not grow), and SIGTERM exits 0 without touching running jobs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { alive, waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { rssMb } from './http-client.js';

type Result = { structuredContent: Record<string, any>; isError?: boolean };

const CLIENTS = 20;

async function clientRound(server: HttpServer, round: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(server.url, server.token)));
  try {
    await Promise.all(clients.map((c, i) => checkOwnAnswers(c, `r${round}-c${i}`)));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

async function checkOwnAnswers(client: Client, marker: string): Promise<void> {
  const echo = (await client.callTool({ name: 'run_command', arguments: { command: ['echo', marker] } }, { timeout: 60_000 })) as Result;
  if (echo.structuredContent.error_class !== 'busy') assert.equal(echo.structuredContent.stdout, `${marker}\n`);
  const check = (await client.callTool({ name: 'policy_check', arguments: { command: ['ls', marker] } })) as Result;
  assert.equal(check.structuredContent.success, true);
  assert.match(check.structuredContent.message, /ls/);
}

describe('HTTP sessions', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  test(`${CLIENTS} concurrent SDK clients get correct answers; RSS does not grow after they leave`, async () => {
    // V8 grows its heap to a working size over the first ~100 sessions (measured: it then stays flat),
    // so warm up first and compare the next 100 sessions against that plateau.
    for (let round = 0; round < 6; round++) await clientRound(server, round);
    const base = rssMb(server.proc.pid!);
    for (let round = 6; round < 11; round++) await clientRound(server, round);
    const end = rssMb(server.proc.pid!);
    process.stderr.write(`sessions: rss after warm-up ${base.toFixed(1)} MB, after 5 more rounds of ${CLIENTS} clients ${end.toFixed(1)} MB\n`);
    // A per-session leak (an McpServer with every tool is ~1 MB) would add 100+ MB here; GC noise stays well under 50.
    assert.ok(end - base < 50, `RSS grew by ${(end - base).toFixed(1)} MB over 100 more client sessions`);
    assert.ok(end < 400, `RSS stays bounded (${end.toFixed(1)} MB)`);
  });

  test('a client that disappears mid-call leaves no process behind', async () => {
    const client = await connectHttp(server.url, server.token);
    const ac = new AbortController();
    const marker = `19.${String(process.pid).padStart(7, '0')}1`; // a unique but valid duration
    const pending = client.callTool({ name: 'run_command', arguments: { command: ['sleep', marker] } }, { signal: ac.signal }).catch(() => undefined);
    const { pidsWithMarker } = await import('../helpers/proc-scan.js');
    await waitFor(() => pidsWithMarker(marker).length > 0, 10_000, 'the sleep to start');
    ac.abort();
    await client.close();
    await pending;
    await waitFor(() => pidsWithMarker(marker).length === 0, 10_000, 'the sleep to be killed');
  });

  test('SIGTERM exits 0 and leaves a running job alone', async () => {
    const other = await startHttpServer({ workspace: dirs.workspace, state: `${dirs.root}/state-term`, profile: 'workspace-write' });
    const client = await connectHttp(other.url, other.token);
    const started = (await client.callTool({ name: 'job_start', arguments: { command: ['sleep', '30'] } })) as Result;
    const pid = started.structuredContent.pid as number;
    assert.ok(pid > 0, JSON.stringify(started.structuredContent));
    await client.close();
    assert.equal(await other.stop('SIGTERM'), 0);
    assert.equal(alive(pid), true, 'the job outlives the server');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !alive(pid), 5000, 'the job to end');
  });
});

// Both protocol eras are served: a 2025-era client (initialize handshake) and a 2026-07-28 client
// (per-request envelope), over stdio and over HTTP, from the same server factory.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const ERAS = [
  { name: '2025 (initialize)', mode: 'legacy' as const, expect: /^2025-/ },
  { name: '2026-07-28', mode: { pin: '2026-07-28' }, expect: /^2026-07-28$/ },
];

async function exercise(client: Client, cwd: string, expect: RegExp): Promise<void> {
  assert.match(client.getNegotiatedProtocolVersion() ?? '', expect);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'run_command'));
  const r = (await client.callTool({ name: 'run_command', arguments: { command: ['echo', 'era'], cwd } })) as { structuredContent: Record<string, unknown> };
  assert.equal(r.structuredContent.stdout, 'era\n');
}

async function connectAndExercise(transport: Transport, era: (typeof ERAS)[number], cwd: string): Promise<void> {
  const client = new Client({ name: 'era-test', version: '1' }, { versionNegotiation: { mode: era.mode } });
  await client.connect(transport);
  try {
    await exercise(client, cwd, era.expect);
  } finally {
    await client.close();
  }
}

describe('protocol eras', () => {
  let dirs: TempDirs;
  let http: HttpServer;
  before(async () => {
    dirs = tempDirs();
    http = await startHttpServer({ workspace: dirs.workspace, state: dirs.state });
  });
  after(async () => {
    await http?.stop();
    dirs?.cleanup();
  });

  for (const era of ERAS) {
    test(`stdio, ${era.name}`, async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'stdio', '--root', dirs.workspace],
        env: { ...(process.env as Record<string, string>), WORKBENCH_HOME: dirs.state },
        stderr: 'ignore',
      });
      await connectAndExercise(transport, era, dirs.workspace);
    });
    test(`http, ${era.name}`, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${http.token}` } } });
      await connectAndExercise(transport, era, dirs.workspace);
    });
  }
});

// Load: 1000 concurrent tool calls over HTTP (MCP and REST) — every one answered (success or busy),
// none past its deadline, server memory bounded, and the server still answers normally afterwards.
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { mcpCall, postJson, rssMb } from './http-client.js';

const CALLS = 1000;
const DEADLINE_MS = 30_000;

type Outcome = 'success' | 'busy' | 'other';

describe('load: 1000 concurrent calls', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  test('every call is answered, success or busy, within its deadline', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CALLS });
    const rssBefore = rssMb(server.proc.pid!);
    const counts: Record<string, number> = {};
    const one = async (i: number): Promise<Outcome> => {
      const heavy = i % 8 === 0 || i % 8 === 5; // a quarter (over both transports) fill the main lane with sleeps, the rest are cheap status-lane checks
      const args = heavy ? { command: ['sleep', '0.2'] } : { command: `ls -la ${i}` };
      const tool = heavy ? 'run_command' : 'policy_check';
      const viaRest = i % 2 === 1;
      const outcome = viaRest ? await restOutcome(tool, args, agent) : await mcpOutcome(tool, args, agent, i);
      const key = `${viaRest ? 'rest' : 'mcp'}:${tool}:${outcome}`;
      counts[key] = (counts[key] ?? 0) + 1;
      return outcome;
    };
    const t0 = performance.now();
    const outcomes = await Promise.all(Array.from({ length: CALLS }, (_, i) => one(i)));
    const elapsed = performance.now() - t0;
    agent.destroy();
    const rssAfter = rssMb(server.proc.pid!);
    process.stderr.write(`load: ${JSON.stringify(counts)} in ${elapsed.toFixed(0)} ms, rss ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB\n`);
    assert.equal(outcomes.filter((o) => o === 'other').length, 0, JSON.stringify(counts));
    assert.ok(outcomes.filter((o) => o === 'success').length >= 100, 'a good share succeeded');
    assert.ok(elapsed < DEADLINE_MS, `all answered within ${DEADLINE_MS} ms`);
    assert.ok(rssAfter < 600, `server RSS stays bounded (${rssAfter.toFixed(0)} MB)`);
    const after = await postJson(server.base, server.token, '/v1/action', { action: 'run_command', parameters: { command: ['echo', 'still here'] } });
    assert.equal(after.status, 200);
    assert.equal(after.json.stdout, 'still here\n');
  });

  async function restOutcome(tool: string, args: unknown, agent: Agent): Promise<Outcome> {
    const r = await postJson(server.base, server.token, '/v1/action', { action: tool, parameters: args }, agent);
    if (r.status === 429 && r.json.error_class === 'busy' && r.headers['retry-after']) return 'busy';
    return r.status === 200 && r.json.success === true ? 'success' : 'other';
  }

  async function mcpOutcome(tool: string, args: unknown, agent: Agent, id: number): Promise<Outcome> {
    const r = await mcpCall(server.base, server.token, tool, args, agent, id);
    const s = r.result?.structuredContent;
    if (r.result?.isError && s?.error_class === 'busy') return 'busy';
    return r.status === 200 && s?.success === true ? 'success' : 'other';
  }
});

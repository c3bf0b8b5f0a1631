// Control-plane benchmarks: POST /v1/action policy_check at 1/10/100 concurrent clients against a bare
// node:http server answering the same JSON (same run), and status-lane latency while the main lane is full.
import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile, type BenchRow } from './stats.js';
import { startHttpServer, type HttpServer } from '../test/helpers/server-process.js';
import { tempDirs } from '../test/helpers/workspace.js';
import { postJson } from '../test/control/http-client.js';

const RUN_MS = 3000;
const BODY = { action: 'policy_check', parameters: { command: 'ls -la' } };

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
}

/** `clients` loops posting for RUN_MS; throughput and latency percentiles. */
async function load(base: string, token: string, clients: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const lat: number[] = [];
  const end = performance.now() + RUN_MS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        const r = await postJson(base, token, '/v1/action', BODY, agent);
        if (r.status !== 200) throw new Error(`bench call answered ${r.status}: ${r.text}`);
        lat.push(performance.now() - s);
      }
    }),
  );
  agent.destroy();
  return { rps: lat.length / ((performance.now() - t0) / 1000), p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

/** The baseline: a bare node:http server that reads the body and answers a policy_check-sized JSON. */
async function bareServer(): Promise<{ server: Server; base: string }> {
  const answer = JSON.stringify({ success: true, allowed: true, rule: 'cmd.allowed', message: 'allowed: ls', profile: 'read-only', sandbox: ['bubblewrap'] });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Status-lane p50/p99 with 4 sleeps holding the main lane, vs the same calls on an idle server. */
async function statusUnderLoad(wb: HttpServer): Promise<BenchRow[]> {
  const idle = await load(wb.base, wb.token, 10);
  const sleepers = Array.from({ length: 4 }, () => postJson(wb.base, wb.token, '/v1/action', { action: 'run_command', parameters: { command: ['sleep', String(RUN_MS / 1000 + 1)] } }));
  await new Promise((r) => setTimeout(r, 300));
  const busy = await load(wb.base, wb.token, 10);
  await Promise.all(sleepers);
  return [
    { name: 'status lane p50, main lane full (10 clients)', ours: busy.p50, baseline: idle.p50, unit: 'ms', note: 'baseline: same server idle' },
    { name: 'status lane p99, main lane full (10 clients)', ours: busy.p99, baseline: idle.p99, unit: 'ms', note: 'baseline: same server idle' },
  ];
}

/** Runs the control scenarios. */
export async function benchControl(): Promise<BenchRow[]> {
  const dirs = tempDirs('wb-bench-ctl-');
  const wb = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, configToml: '[log]\nlevel = "warn"\n' });
  const bare = await bareServer();
  const rows: BenchRow[] = [];
  try {
    for (const clients of [1, 10, 100]) {
      const ours = await load(wb.base, wb.token, clients);
      const base = await load(bare.base, '', clients);
      rows.push({ name: `REST policy_check throughput, ${clients} clients`, ours: ours.rps, baseline: base.rps, unit: 'req/s', note: 'baseline: bare node:http JSON echo' });
      rows.push({ name: `REST policy_check p50, ${clients} clients`, ours: ours.p50, baseline: base.p50, unit: 'ms' });
      rows.push({ name: `REST policy_check p99, ${clients} clients`, ours: ours.p99, baseline: base.p99, unit: 'ms' });
    }
    rows.push(...(await statusUnderLoad(wb)));
  } finally {
    await new Promise((r) => bare.server.close(r));
    await wb.stop();
    dirs.cleanup();
  }
  return rows;
}

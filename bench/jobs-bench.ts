// Jobs benchmarks: job_start latency vs a raw detached spawn, and a 1 GiB output job's log write
// throughput vs `head -c 1G /dev/zero > file` in the same run, with the server's peak RSS meanwhile.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { waitForJob } from '../src/execution/jobs/job-control.js';
import { makeService, makeStateDir, shRequest } from '../test/helpers/jobs-fixture.js';

interface Row {
  name: string;
  ours: number;
  baseline: number;
  unit: string;
  note?: string;
}

const GIB = 1024 ** 3;
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

async function rawSpawnMs(): Promise<number> {
  const t0 = performance.now();
  const child = spawn('/bin/true', [], { detached: true, stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  const ms = performance.now() - t0;
  child.unref();
  return ms;
}

/** Runs the jobs benchmarks in a temp state dir and returns one row per figure. */
export async function benchJobs(): Promise<Row[]> {
  const env = makeStateDir();
  const svc = makeService(env.stateDir, { maxRunning: 4, maxLogBytes: 2 * GIB });
  try {
    const ours: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const { job } = await svc.start(shRequest(env.workspace, 'true'));
      ours.push(performance.now() - t0);
      raw.push(await rawSpawnMs());
      await waitForJob(svc, job.id, 5000);
    }
    const rows: Row[] = [
      { name: 'job_start latency (median)', ours: percentile(ours, 0.5), baseline: percentile(raw, 0.5), unit: 'ms', note: 'until the command pid is known vs raw detached spawn' },
      { name: 'job_start latency (p95)', ours: percentile(ours, 0.95), baseline: percentile(raw, 0.95), unit: 'ms' },
    ];
    return [...rows, ...(await bigOutput(svc, env.workspace))];
  } finally {
    svc.close();
    env.cleanup();
  }
}

async function bigOutput(svc: ReturnType<typeof makeService>, ws: string): Promise<Row[]> {
  const file = join(ws, 'baseline.bin');
  const b0 = performance.now();
  spawnSync('/bin/sh', ['-c', `head -c ${GIB} /dev/zero > ${file}`]);
  const baseMs = performance.now() - b0;
  spawnSync('/bin/rm', ['-f', file]);
  const t0 = performance.now();
  const { job } = await svc.start(shRequest(ws, `head -c ${GIB} /dev/zero`));
  const end = await waitForJob(svc, job.id, 120_000);
  const ms = performance.now() - t0;
  const mbps = (t: number) => GIB / 1048576 / (t / 1000);
  return [
    { name: '1 GiB job output → log throughput', ours: mbps(ms), baseline: mbps(baseMs), unit: 'MiB/s', note: `${end.status}; stdout.log + combined.idx; target ≥ 0.7×` },
    await serverRssDuringBigJob(ws),
  ];
}

/** Peak RSS of a real `workbench stdio` server while a 1 GiB job it started runs to the end. */
async function serverRssDuringBigJob(ws: string): Promise<Row> {
  const state = join(ws, '..', 'rss-state');
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio', '--root', ws], env: { ...(process.env as Record<string, string>), WORKBENCH_HOME: state }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const pid = transport.pid!;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, rssMiB(pid)));
  const sampler = setInterval(sample, 20);
  try {
    const started = (await client.callTool({ name: 'job_start', arguments: { command: ['head', '-c', String(GIB), '/dev/zero'] } })) as { structuredContent: { job_id: string } };
    for (;;) {
      const r = (await client.callTool({ name: 'job_wait', arguments: { job_id: started.structuredContent.job_id, timeout_ms: 20_000 } })) as { structuredContent: { status: string } };
      if (!['queued', 'running'].includes(r.structuredContent.status)) break;
    }
    sample();
  } finally {
    clearInterval(sampler);
    await client.close();
  }
  return { name: 'server peak RSS during a 1 GiB job (stdio server)', ours: peak, baseline: 100, unit: 'MiB', note: 'real workbench stdio process, sampled every 20 ms; baseline = the 100 MB target' };
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchJobs()) console.log(`${r.name.padEnd(40)} ours ${r.ours.toFixed(1).padStart(8)} ${r.unit}  baseline ${r.baseline.toFixed(1).padStart(8)}  ratio ${(r.ours / r.baseline).toFixed(2)}  ${r.note ?? ''}`);
}

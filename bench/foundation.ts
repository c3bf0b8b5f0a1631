// Foundation benchmarks: cold start, run_command round trip, server memory under a 200 MB output.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { interleave, median, type BenchRow } from './stats.js';
import { tempDirs } from '../test/helpers/workspace.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const MIN = fileURLToPath(new URL('./min-server.js', import.meta.url));
const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '0' } } })}\n`;

/** ms from spawn until the initialize answer arrives (or until exit, for `node -e 0`). */
function coldStart(args: string[], env: NodeJS.ProcessEnv, expectAnswer = true): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    p.on('error', reject);
    if (!expectAnswer) return void p.on('exit', () => resolve(performance.now() - t0));
    p.stdout!.once('data', () => {
      const ms = performance.now() - t0;
      p.kill('SIGKILL');
      resolve(ms);
    });
    p.stdin!.write(INIT);
  });
}

function rawSpawnTrue(): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    spawn('true', { stdio: 'ignore' }).on('close', () => resolve(performance.now() - t0));
  });
}

/** Runs the foundation scenarios. */
export async function benchFoundation(): Promise<BenchRow[]> {
  const dirs = tempDirs('wb-bench-');
  const env = { ...process.env, WORKBENCH_HOME: dirs.state };
  const rows: BenchRow[] = [];
  try {
    const ours = ['stdio', '--root', dirs.workspace].map(String);
    const [w, m] = await interleave(10, () => coldStart([MAIN, ...ours], env), () => coldStart([MIN], env));
    const bare: number[] = [];
    for (let i = 0; i < 10; i++) bare.push(await coldStart(['-e', '0'], env, false));
    rows.push({ name: 'cold start: spawn → initialize answered', ours: median(w), baseline: median(m), unit: 'ms', note: `vs minimal SDK echo server; bare node -e 0: ${median(bare).toFixed(1)} ms` });
    rows.push(...(await roundTripAndMemory(dirs.workspace, env, [], 'confined: bubblewrap+seccomp+cgroup+rlimit')));
    const noBwrap = join(dirs.root, 'no-bwrap.toml');
    writeFileSync(noBwrap, '[sandbox]\nbubblewrap = "off"\n');
    rows.push(...(await roundTripAndMemory(dirs.workspace, env, ['--config', noBwrap], 'bubblewrap off: cgroup+rlimit only')).slice(0, 1));
  } finally {
    dirs.cleanup();
  }
  return rows;
}

async function roundTripAndMemory(workspace: string, env: NodeJS.ProcessEnv, extra: string[], label: string): Promise<BenchRow[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio', '--root', workspace, ...extra], env: env as Record<string, string>, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  try {
    const callTrue = async () => {
      const t0 = performance.now();
      await client.callTool({ name: 'run_command', arguments: { command: ['true'] } });
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) await callTrue();
    const [ours, raw] = await interleave(30, callTrue, rawSpawnTrue);
    const pid = transport.pid!;
    const before = rssKb(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
    await client.callTool({ name: 'run_command', arguments: { command: ['head', '-c', '200000000', '/dev/zero'], timeout_ms: 30000 } }, { timeout: 60000 });
    clearInterval(timer);
    peak = Math.max(peak, rssKb(pid));
    return [
      { name: `run_command ["true"] round trip (stdio, ${label})`, ours: median(ours), baseline: median(raw), unit: 'ms', note: 'vs raw Node spawn("true") in the bench process' },
      { name: 'server RSS growth while a command prints 200 MB', ours: (peak - before) / 1024, baseline: 30, unit: 'MB', note: 'baseline column = the 30 MB target' },
    ];
  } finally {
    await client.close();
  }
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

// Benchmarks of the data adapters against the programs an agent would otherwise run (medians).
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, ftruncateSync, mkdtempSync, openSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema } from '../src/config/schema.js';
import type { AppDeps } from '../src/control/deps.js';
import type { ToolDef } from '../src/control/tool.js';
import { fileTools } from '../src/control/tools/adapters-files.js';
import { systemTools } from '../src/control/tools/adapters-system.js';
import { detectCapabilities, SYSTEM_PATH, whichSystem } from '../src/sandbox/capabilities.js';
import { makeTree } from '../test/fixtures/data-tree.js';

import { median as medianOf, type BenchRow } from './stats.js';

/** Median ms of `runs` sequential runs of fn. */
async function median(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return Math.round(medianOf(times) * 100) / 100;
}

async function benchDeps(ws: string, stateDir: string): Promise<AppDeps> {
  const config = ConfigSchema.parse({});
  const runtime = { profile: config.policy.profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: [], stateDir, homeDir: homedir() };
  const caps = await detectCapabilities();
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  };
  const policy = { ...runtime, networkAllowed: false, systemPath: SYSTEM_PATH, fs: { realpath: real, isExecutable: () => false } };
  return {
    config, runtime, logger: pino({ level: 'silent' }), version: 'bench', store: () => { throw new Error('no store'); },
    capabilities: () => caps, loadCapabilities: async () => caps, policyContext: () => policy, service: <T>(_: string, c: () => T) => c(), onClose: () => undefined, now: () => new Date(),
  };
}

function run(tools: ToolDef[], name: string, args: Record<string, unknown>) {
  const t = tools.find((x) => x.name === name)!;
  return t.handler(t.input.parse(args), { signal: new AbortController().signal, requestId: 'bench', transport: 'memory' });
}

const sh = (file: string, args: string[]) => spawnSync(file, args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });

/** Runs every scenario on a fresh 100k-file tree and a 5 GB sparse log; cleans up after itself. */
export async function benchAdapters(): Promise<BenchRow[]> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-data-')));
  const state = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-state-')));
  try {
    const tree = join(ws, 'tree');
    makeTree(tree);
    const deps = await benchDeps(ws, state);
    const files = fileTools(deps);
    const rows: BenchRow[] = [];
    const rg = whichSystem('rg');
    if (rg) {
      const ours = await median(5, () => run(files, 'file_search', { path: tree, query: 'needle', max_results: 1000 }));
      const base = await median(5, () => sh(rg, ['--json', '--fixed-strings', '--ignore-case', 'needle', tree]));
      rows.push({ name: 'file_search 100k files (ripgrep engine)', ours, baseline: base, unit: 'ms', note: 'baseline: rg --json' });
    }
    const builtin = fileTools(deps, { searchEngine: 'builtin' });
    const bi = await median(3, () => run(builtin, 'file_search', { path: tree, query: 'needle', max_results: 1000, time_budget_ms: 30000 }));
    rows.push({ name: 'file_search 100k files (built-in engine)', ours: bi, baseline: rg ? await median(3, () => sh(rg, ['-F', 'needle', tree])) : NaN, unit: 'ms', note: 'baseline: rg' });
    const find = whichSystem('find')!;
    const lf = await median(5, () => run(files, 'list_files', { path: tree, recursive: true, limit: 1000 }));
    rows.push({ name: 'list_files first page (1000) of 100k', ours: lf, baseline: await median(5, () => sh(find, [tree])), unit: 'ms', note: 'baseline: find (all 100k)' });
    const ls = await median(3, () => run(files, 'list_files', { path: tree, recursive: true, sort_by: 'size', order: 'desc', limit: 100, time_budget_ms: 60000 }));
    rows.push({ name: 'list_files sorted by size, 100k', ours: ls, baseline: await median(3, () => sh(find, [tree, '-printf', '%s %p\n'])), unit: 'ms', note: 'baseline: find -printf %s (unsorted)' });
    const du = await median(5, () => run(files, 'disk_usage', { path: tree, time_budget_ms: 30000 }));
    rows.push({ name: 'disk_usage 100k files', ours: du, baseline: await median(5, () => sh(whichSystem('du')!, ['-a', '-d', '1', tree])), unit: 'ms', note: 'baseline: du -a -d 1' });
    const log = join(ws, 'huge.log');
    const fd = openSync(log, 'w');
    ftruncateSync(fd, 5 * 1024 ** 3);
    closeSync(fd);
    appendFileSync(log, Array.from({ length: 1000 }, (_, i) => `2024-01-01 log line ${i}`).join('\n') + '\n');
    const lt = await median(9, () => run(files, 'log_tail', { path: log, lines: 100 }));
    rows.push({ name: 'log_tail 100 lines of 5 GB sparse log', ours: lt, baseline: await median(9, () => sh(whichSystem('tail')!, ['-n', '100', log])), unit: 'ms', note: 'baseline: tail -n 100' });
    const sys = systemTools(deps);
    const ps = await median(3, () => run(sys, 'process_search', { limit: 50 }));
    rows.push({ name: 'process_search (incl. 200 ms CPU sample)', ours: ps, baseline: await median(3, () => sh(whichSystem('ps')!, ['aux'])), unit: 'ms', note: 'baseline: ps aux (no sampling window)' });
    return rows;
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}

// Run directly: node dist/bench/data-adapters.js
if (process.argv[1]?.endsWith('data-adapters.js')) {
  const rows = await benchAdapters();
  for (const r of rows) console.log(`${r.name.padEnd(45)} ours ${String(r.ours).padStart(9)} ${r.unit}  baseline ${String(r.baseline).padStart(9)} ${r.unit}  ×${(r.ours / r.baseline).toFixed(2)}  ${r.note ?? ''}`);
}

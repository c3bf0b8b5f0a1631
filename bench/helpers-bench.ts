// Cost of confining the adapters' helper programs: the git adapter (and the bare launch path) with
// the read-only sandbox view, cgroup, deadline and tree kill, against the same git command spawned
// raw and unconfined from Node, interleaved in the same run (medians). Target: ≤ 10 ms per call.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema } from '../src/config/schema.js';
import type { AppDeps } from '../src/control/deps.js';
import { gitTools } from '../src/control/tools/adapters-git.js';
import { runHelperBounded } from '../src/execution/helpers/run-helper-bounded.js';
import { gitCeilings, gitEnv, GIT_HARDENING } from '../src/data/git/run-git.js';
import { helperView } from '../src/execution/helpers/helper-view.js';
import { bwrapArgs } from '../src/sandbox/bwrap.js';
import { detectCapabilities, SYSTEM_PATH, whichSystem, type HostCapabilities } from '../src/sandbox/capabilities.js';
import { interleave, median, type BenchRow } from './stats.js';

const ITERATIONS = 40;
const STATUS = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'];

function benchDeps(ws: string, stateDir: string, bubblewrap: 'auto' | 'off', caps: HostCapabilities): AppDeps {
  const config = ConfigSchema.parse({ sandbox: { bubblewrap } });
  const runtime = { profile: config.policy.profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: [], stateDir, homeDir: homedir() };
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

/** CPU ms used so far by this process plus its reaped children (the whole helper tree once reaped). */
function cpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
  const u = process.resourceUsage();
  return (Number(f[13]) + Number(f[14])) * 10 + (u.userCPUTime + u.systemCPUTime) / 1000;
}

/**
 * CPU ms per call of `fn` over `n` calls. Unlike wall time this hardly depends on how loaded the
 * host is (a shared CI box or a laptop busy with other work): it is what a call costs an idle host.
 */
async function cpuPerCall(n: number, fn: () => Promise<unknown>): Promise<number> {
  const c0 = cpuMs();
  for (let i = 0; i < n; i++) await fn();
  return (cpuMs() - c0) / n;
}

const timed = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** A small repository: 50 tracked files, a few changes. */
function makeRepo(ws: string): void {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
  execFileSync('git', ['init', '-q'], { cwd: ws, env });
  for (let i = 0; i < 50; i++) writeFileSync(join(ws, `f${i}.txt`), `line ${i}\n`);
  execFileSync('git', ['add', '.'], { cwd: ws, env });
  execFileSync('git', ['commit', '-qm', 'init'], { cwd: ws, env });
  for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}.txt`), `changed ${i}\n`);
}

/** Median ms per git status: adapter and bare launch path (confined, and with bubblewrap off) vs raw spawn. */
export async function benchHelpers(): Promise<BenchRow[]> {
  const git = whichSystem('git');
  if (!git) return [{ name: 'git helper confined', ours: NaN, baseline: NaN, unit: 'ms', note: 'skipped: git is not installed' }];
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-helpers-')));
  const state = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-helpers-state-')));
  try {
    makeRepo(ws);
    const env = gitEnv(gitCeilings([ws]));
    const args = [...GIT_HARDENING, ...STATUS];
    const raw = () => timed(() => new Promise<void>((resolve, reject) => {
      const p = spawn(git, args, { cwd: ws, env, stdio: ['ignore', 'pipe', 'ignore'] });
      p.stdout.resume();
      p.on('error', reject).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git exit ${code}`))));
    }));
    const rows: BenchRow[] = [];
    const caps = await detectCapabilities(state);
    const extra: BenchRow[] = [];
    for (const bubblewrap of ['auto', 'off'] as const) {
      const deps = benchDeps(ws, state, bubblewrap, caps);
      const tool = gitTools(deps).find((t) => t.name === 'git_status')!;
      const adapter = () => timed(() => tool.handler(tool.input.parse({ path: ws }), { signal: new AbortController().signal, requestId: 'bench', transport: 'memory' }));
      const launch = () => timed(async () => {
        const r = await runHelperBounded(deps, { program: git, args, cwd: ws, env, unconfined: 'run', maxBytes: 1 << 20, timeoutMs: 15_000 });
        if (r.code !== 0) throw new Error(`git status failed: ${r.stderr}`);
      });
      const layers = (await runHelperBounded(deps, { program: git, args: ['--version'], unconfined: 'run', maxBytes: 4096, timeoutMs: 15_000 })).layers.join('+');
      await adapter();
      await raw();
      const [a, b] = await interleave(ITERATIONS, adapter, raw);
      const [c, e] = await interleave(ITERATIONS, launch, raw);
      const note = `${ITERATIONS} interleaved runs; layers ${layers}`;
      if (process.platform === 'linux') {
        const ours = await cpuPerCall(ITERATIONS * 2, launch);
        const base = await cpuPerCall(ITERATIONS * 2, raw);
        rows.push({ name: `git status CPU per call (${bubblewrap === 'auto' ? 'confined' : 'bwrap off'})`, ours, baseline: base, unit: 'ms cpu', note: `server + helper tree, user+sys; Δ ${(ours - base).toFixed(2)} ms` });
      }
      if (bubblewrap === 'auto' && caps.bubblewrap.works) {
        // The share of bubblewrap itself: the same mounts and git, spawned raw (no wrapper, cgroup or seccomp).
        const view = helperView(deps, git, { cwd: ws, unconfined: 'run' }).sandbox;
        const bw = [...bwrapArgs(view, caps, { seccomp: false, maskFile: '/dev/null' }), git, ...args];
        const bare = () => timed(() => new Promise<void>((resolve, reject) => {
          const p = spawn(caps.bubblewrap.path!, bw, { cwd: '/', env, stdio: ['ignore', 'pipe', 'ignore'] });
          p.stdout.resume();
          p.on('error', reject).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bwrap git exit ${code}`))));
        }));
        const [f, g] = await interleave(ITERATIONS, bare, raw);
        extra.push({ name: 'git status in raw bwrap (same view)', ours: median(f), baseline: median(g), unit: 'ms', note: `what bubblewrap alone costs here; Δ ${(median(f) - median(g)).toFixed(2)} ms` });
      }
      rows.push({ name: `git_status adapter (${bubblewrap === 'auto' ? 'confined' : 'bwrap off'})`, ours: median(a), baseline: median(b), unit: 'ms', note: `${note}; Δ ${(median(a) - median(b)).toFixed(2)} ms; baseline raw spawn git status` });
      rows.push({ name: `git status via launch path (${bubblewrap === 'auto' ? 'confined' : 'bwrap off'})`, ours: median(c), baseline: median(e), unit: 'ms', note: `${note}; Δ ${(median(c) - median(e)).toFixed(2)} ms` });
    }
    return [...rows, ...extra];
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}

// Run directly: node dist/bench/helpers-bench.js
if (process.argv[1]?.endsWith('helpers-bench.js')) {
  for (const r of await benchHelpers()) console.log(`${r.name.padEnd(42)} ours ${r.ours.toFixed(2).padStart(8)} ms  baseline ${r.baseline.toFixed(2).padStart(8)} ms  ×${(r.ours / r.baseline).toFixed(2)}  ${r.note ?? ''}`);
}

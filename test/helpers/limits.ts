// An OUTER cgroup that contains a dangerous test (fork bomb, memory hog) even if the code under
// test fails to confine it: the test body runs in a child node process that is moved into this
// cgroup before it starts, and every process it creates inherits the membership.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OuterLimits {
  pidsMax: number;
  memoryBytes: number;
  cpuPercent: number;
}

export interface OuterCgroup {
  name: string;
  /** Directory per hierarchy: pids, memory, cpu (v1) and unified (for cgroup.kill). */
  dirs: Record<'pids' | 'memory' | 'cpu' | 'unified', string>;
}

const MOUNTS = { pids: '/sys/fs/cgroup/pids', memory: '/sys/fs/cgroup/memory', cpu: '/sys/fs/cgroup/cpu', unified: '/sys/fs/cgroup/unified' } as const;

/** Creates the outer cgroup next to our own (so outer limits of the CI runner still apply), or returns why not. */
export function createOuterCgroup(limits: OuterLimits): OuterCgroup | string {
  const own = ownPaths();
  const name = `wb-test-${process.pid}-${Date.now()}`;
  const dirs = {} as OuterCgroup['dirs'];
  for (const k of Object.keys(MOUNTS) as Array<keyof typeof MOUNTS>) {
    if (own[k] === undefined || !existsSync(MOUNTS[k])) return `no ${k} cgroup hierarchy at ${MOUNTS[k]}`;
    dirs[k] = join(MOUNTS[k], own[k]!, name);
  }
  const outer = { name, dirs };
  try {
    for (const d of Object.values(dirs)) mkdirSync(d);
    writeChecked(join(dirs.pids, 'pids.max'), String(limits.pidsMax));
    writeChecked(join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    writeFileSync(join(dirs.cpu, 'cpu.cfs_period_us'), '100000');
    writeChecked(join(dirs.cpu, 'cpu.cfs_quota_us'), String(limits.cpuPercent * 1000));
    if (!existsSync(join(dirs.unified, 'cgroup.kill'))) throw new Error('cgroup.kill is missing (kernel < 5.14)');
    return outer;
  } catch (err) {
    void removeOuterCgroup(outer);
    return (err as Error).message;
  }
}

/** Processes anywhere below the outer cgroup (pids.current is hierarchical). */
export function outerPidCount(outer: OuterCgroup): number {
  return Number(readFileSync(join(outer.dirs.pids, 'pids.current'), 'utf8').trim());
}

/** Kills everything inside (recursively, atomically), waits until empty, removes all the directories. */
export async function removeOuterCgroup(outer: OuterCgroup): Promise<void> {
  const kill = join(outer.dirs.unified, 'cgroup.kill');
  const deadline = Date.now() + 5000;
  while (existsSync(kill) && Date.now() < deadline) {
    writeFileSync(kill, '1');
    if (!/populated 1/.test(readFileSync(join(outer.dirs.unified, 'cgroup.events'), 'utf8'))) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const d of Object.values(outer.dirs)) removeTree(d);
}

export interface ContainedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the parent had to kill the outer cgroup because the child overran `timeoutMs`. */
  overran: boolean;
}

/**
 * Runs `node --input-type=module -e code -- ...args` inside the outer cgroup. The shell joins
 * every hierarchy first and only then execs node (`&&`: if joining fails, nothing runs).
 */
export function runInOuterCgroup(outer: OuterCgroup, code: string, args: string[], timeoutMs: number): Promise<ContainedRun> {
  const join$ = Object.values(outer.dirs).map((d) => `echo $$ > ${d}/cgroup.procs`).join(' && ');
  const child = spawn('/bin/sh', ['-c', `${join$} && exec "$@"`, 'sh', process.execPath, '--input-type=module', '-e', code, '--', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  let overran = false;
  const timer = setTimeout(() => {
    overran = true;
    writeFileSync(join(outer.dirs.unified, 'cgroup.kill'), '1');
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, overran });
    });
  });
}

function ownPaths(): Partial<Record<keyof typeof MOUNTS, string>> {
  const out: Partial<Record<keyof typeof MOUNTS, string>> = {};
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')) {
    const [, ctrls = '', path = '/'] = line.split(':');
    if (ctrls === '') out.unified = path;
    for (const c of ctrls.split(',')) if (c === 'pids' || c === 'memory' || c === 'cpu') out[c] = path;
  }
  return out;
}

function writeChecked(file: string, value: string): void {
  writeFileSync(file, value);
  if (readFileSync(file, 'utf8').trim() !== value) throw new Error(`${file} did not take ${value}`);
}

/** rmdir children first (the code under test creates its own cgroups inside ours). */
function removeTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeTree(join(dir, e.name));
  try {
    rmdirSync(dir);
  } catch {
    /* still busy: reported by the caller's emptiness assertion */
  }
}

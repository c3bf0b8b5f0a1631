// process_search: processes from /proc with CPU% from two samples ~200 ms apart (`ps` off Linux).
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { AppDeps } from '../../control/deps.js';
import { listPids, readProc, type ProcSample } from './read-proc.js';
import { psProcesses } from './ps-fallback.js';
import { userNames } from './user-names.js';

export interface ProcessSearchArgs {
  name?: string;
  pid?: number;
  user?: string;
  sort_by: 'cpu' | 'mem';
  limit: number;
  sample_ms?: number;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  user: string;
  comm: string;
  cpu_percent: number;
  mem_percent: number;
  rss_bytes: number;
  elapsed_s: number;
  args: string;
}

const TICKS = 100; // USER_HZ is 100 on every mainstream Linux build.
const PAGE = 4096;

/** Filters and sorts processes; `total` counts matches before the limit. */
export async function processSearch(deps: AppDeps, args: ProcessSearchArgs): Promise<{ processes: ProcessInfo[]; total: number; truncated: boolean }> {
  const all = process.platform === 'linux' ? await sampleProc(args.sample_ms ?? 200) : await psProcesses(deps);
  const matches = all.filter((p) => matchesFilter(p, args));
  matches.sort((a, b) => (args.sort_by === 'mem' ? b.rss_bytes - a.rss_bytes : b.cpu_percent - a.cpu_percent) || a.pid - b.pid);
  return { processes: matches.slice(0, args.limit), total: matches.length, truncated: matches.length > args.limit };
}

function matchesFilter(p: ProcessInfo, a: ProcessSearchArgs): boolean {
  if (a.pid !== undefined && p.pid !== a.pid) return false;
  if (a.user !== undefined && p.user !== a.user) return false;
  if (a.name === undefined) return true;
  const n = a.name.toLowerCase();
  return p.comm.toLowerCase().includes(n) || p.args.toLowerCase().includes(n);
}

function snapshot(): Map<number, ProcSample> {
  const m = new Map<number, ProcSample>();
  for (const pid of listPids(readdirSync)) {
    const s = readProc(pid, PAGE);
    if (s) m.set(pid, s);
  }
  return m;
}

async function sampleProc(sampleMs: number): Promise<ProcessInfo[]> {
  const first = snapshot();
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, sampleMs));
  const second = snapshot();
  const dt = Number(process.hrtime.bigint() - t0) / 1e9;
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  const total = os.totalmem();
  const names = userNames();
  return [...second.values()].map((s) => {
    const prev = first.get(s.pid);
    const used = prev && prev.startTicks === s.startTicks ? (s.cpuTicks - prev.cpuTicks) / TICKS : 0;
    return {
      pid: s.pid, ppid: s.ppid, user: names.get(s.uid) ?? String(s.uid), comm: s.comm,
      cpu_percent: round1((used / dt) * 100), mem_percent: round1((s.rssBytes / total) * 100), rss_bytes: s.rssBytes,
      elapsed_s: Math.max(0, Math.round(uptime - s.startTicks / TICKS)), args: s.args,
    };
  });
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

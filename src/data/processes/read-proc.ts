// Reads one process from /proc (stat, status, cmdline — never environ or mem).
import { readFileSync } from 'node:fs';

export interface ProcSample {
  pid: number;
  ppid: number;
  uid: number;
  comm: string;
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  /** Start time in clock ticks after boot. */
  startTicks: number;
  rssBytes: number;
  args: string;
}

const MAX_ARGS = 512;

/** Parses /proc/<pid>/stat, status and cmdline; null when the process vanished or is unreadable. */
export function readProc(pid: number, pageSize: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    // Fields after comm start at field 3 (state): ppid=4, utime=14, stime=15, starttime=22, rss=24.
    const num = (field: number) => Number(f[field - 3]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
    return { pid, ppid: num(4), uid, comm, cpuTicks: num(14) + num(15), startTicks: num(22), rssBytes: num(24) * pageSize, args: readArgs(pid, comm) };
  } catch {
    return null;
  }
}

function readArgs(pid: number, comm: string): string {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`);
    const s = raw.subarray(0, MAX_ARGS * 4).toString('utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
    if (s === '') return `[${comm}]`;
    return s.length > MAX_ARGS ? s.slice(0, MAX_ARGS) + '…' : s;
  } catch {
    return `[${comm}]`;
  }
}

/** All numeric entries of /proc. */
export function listPids(readdir: (p: string) => string[]): number[] {
  return readdir('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
}

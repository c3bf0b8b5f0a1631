// Identifies a process by pid plus start time, so a reused pid is never mistaken for a job's.
import { readFileSync } from 'node:fs';

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null when the pid is gone. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return null;
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

/** True when `pid` is alive and is the same process that was recorded with `start`. */
export function isSameProcess(pid: number | null, start: string | null): boolean {
  if (!pid || !start) return false;
  return processStartTime(pid) === start;
}

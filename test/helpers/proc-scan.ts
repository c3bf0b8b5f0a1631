// Finds host pids whose command line contains a marker (works across pid namespaces).
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose argv contains `marker`. */
export function pidsWithMarker(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(marker)) out.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

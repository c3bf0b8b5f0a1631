// Off Linux (no /proc): the same fields from `ps -axo …` spawned at a fixed path.
//
// ps runs through the helper launch path like every helper (cgroup or process group, deadline,
// tree kill, scrubbed env, `/` as its directory). It must report the host (SPEC §4.3), and a
// sandbox view has its own pid namespace; but this fallback only runs where /proc is missing,
// that is off Linux, where there is no bubblewrap: there it sees the host. Its argv is fixed by
// us (nothing from content or the agent reaches it) and it loads no code from the filesystem, so
// it may run unconfined. No host-view exception exists in the launch path for it.
import { whichSystem } from '../../sandbox/capabilities.js';
import { AppError } from '../../shared/errors.js';
import type { AppDeps } from '../../control/deps.js';
import { runHelperBounded } from '../../execution/helpers/run-helper-bounded.js';
import type { ProcessInfo } from './process-search.js';

/** Runs ps and parses its columns; args is last so it may contain spaces. */
export async function psProcesses(deps: AppDeps): Promise<ProcessInfo[]> {
  const ps = whichSystem('ps');
  if (!ps) throw new AppError('unavailable', 'neither /proc nor ps is available on this host');
  const r = await runHelperBounded(deps, { program: ps, args: ['-axo', 'pid=,ppid=,user=,pcpu=,pmem=,rss=,etime=,comm=,args='], unconfined: 'run', maxBytes: 8 << 20, timeoutMs: 5000 });
  return r.stdout.toString('utf8').split('\n').filter(Boolean).map(parsePsLine).filter((p): p is ProcessInfo => p !== null);
}

function parsePsLine(line: string): ProcessInfo | null {
  const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line);
  if (!m) return null;
  const args = m[9].length > 512 ? m[9].slice(0, 512) + '…' : m[9];
  return { pid: +m[1], ppid: +m[2], user: m[3], cpu_percent: +m[4], mem_percent: +m[5], rss_bytes: +m[6] * 1024, elapsed_s: etimeSeconds(m[7]), comm: m[8], args };
}

/** Parses ps etime ([[dd-]hh:]mm:ss) into seconds. */
export function etimeSeconds(e: string): number {
  const [days, rest] = e.includes('-') ? e.split('-') : ['0', e];
  const parts = rest.split(':').map(Number).reverse();
  return Number(days) * 86400 + (parts[2] ?? 0) * 3600 + (parts[1] ?? 0) * 60 + (parts[0] ?? 0);
}

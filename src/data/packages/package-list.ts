// package_list: installed packages of one manager, filtered, sorted by name and paginated.
import { AppError } from '../../shared/errors.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { runBounded } from '../spawn-bounded.js';
import { managerSpec, MANAGERS, type Manager, type Pkg } from './package-managers.js';

export interface PackageListArgs {
  manager: 'auto' | 'apt' | Manager;
  filter?: string;
  limit: number;
  cursor?: string;
}

/** Picks the manager (auto: the first installed of dpkg, brew, pip, npm) and lists a page. */
export async function packageList(args: PackageListArgs) {
  const manager = pickManager(args.manager);
  const spec = managerSpec(manager)!;
  const r = await runBounded(spec.program, spec.args, { env: spec.env, maxBytes: 32 << 20, timeoutMs: 30000 });
  if (r.timedOut) throw new AppError('timeout', `${manager} did not answer within 30 s`);
  if (r.truncated) throw new AppError('too_large', `${manager} printed more than 32 MiB`);
  let all: Pkg[];
  try {
    all = spec.parse(r.stdout.toString('utf8'));
  } catch {
    throw new AppError('exec_failed', `${manager} gave output that could not be parsed: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  }
  const f = args.filter?.toLowerCase();
  const rows = all.filter((p) => f === undefined || p.name.toLowerCase().includes(f)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const after = args.cursor ? decodeCursor<{ shape: string; p: string }>(args.cursor, `pkg:${manager}`).p : undefined;
  const rest = after === undefined ? rows : rows.filter((p) => p.name > after);
  const packages = rest.slice(0, args.limit);
  const more = rest.length > args.limit;
  return { manager, packages, total: rows.length, truncated: more, next_cursor: more ? encodeCursor({ shape: `pkg:${manager}`, p: packages.at(-1)!.name }) : null };
}

function pickManager(m: PackageListArgs['manager']): Manager {
  if (m === 'auto') {
    const found = MANAGERS.find((x) => managerSpec(x) !== null);
    if (!found) throw new AppError('unavailable', 'no supported package manager (dpkg, brew, pip, npm) is installed');
    return found;
  }
  const real: Manager = m === 'apt' ? 'dpkg' : m;
  if (managerSpec(real) === null) throw new AppError('unavailable', `package manager ${m} is not installed on this host`, { hint: 'use manager: "auto"' });
  return real;
}

// package_list: installed packages of one manager, filtered, sorted by name and paginated.
import { AppError } from '../../shared/errors.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { AppDeps } from '../../control/deps.js';
import { runHelperBounded } from '../../execution/helpers/run-helper-bounded.js';
import { managerSpec, MANAGERS, type Manager, type ManagerSpec, type Pkg } from './package-managers.js';

export interface PackageListArgs {
  manager: 'auto' | 'apt' | Manager;
  filter?: string;
  limit: number;
  cursor?: string;
}

/**
 * Picks the manager (auto: the first installed of dpkg, brew, pip, npm) and lists a page. The
 * manager runs through the helper launch path in `/` (never the workspace) inside the read-only
 * sandbox view; see ManagerSpec.unconfined for hosts that cannot confine.
 */
export async function packageList(deps: AppDeps, args: PackageListArgs) {
  const manager = pickManager(args.manager);
  const all = await installed(deps, manager, managerSpec(manager)!);
  const f = args.filter?.toLowerCase();
  const rows = all.filter((p) => f === undefined || p.name.toLowerCase().includes(f)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const after = args.cursor ? decodeCursor<{ shape: string; p: string }>(args.cursor, `pkg:${manager}`).p : undefined;
  const rest = after === undefined ? rows : rows.filter((p) => p.name > after);
  const packages = rest.slice(0, args.limit);
  const more = rest.length > args.limit;
  return { manager, packages, total: rows.length, truncated: more, next_cursor: more ? encodeCursor({ shape: `pkg:${manager}`, p: packages.at(-1)!.name }) : null };
}

async function installed(deps: AppDeps, manager: Manager, spec: ManagerSpec): Promise<Pkg[]> {
  const r = await runHelperBounded(deps, { program: spec.program, args: spec.args, env: spec.env, binds: spec.binds, unconfined: spec.unconfined, maxBytes: 32 << 20, timeoutMs: 30000 });
  if (r.timedOut) throw new AppError('timeout', `${manager} did not answer within 30 s`);
  if (r.truncated) throw new AppError('too_large', `${manager} printed more than 32 MiB`);
  const why = r.stderr.trim().split('\n')[0] ?? '';
  // npm ls exits 1 on an extraneous or missing package but still prints its JSON: the output decides.
  if (r.code !== 0 && r.stdout.length === 0) throw new AppError('unavailable', `${manager} failed (exit ${r.code}): ${why}`);
  try {
    return spec.parse(r.stdout.toString('utf8'));
  } catch {
    throw new AppError('exec_failed', `${manager} gave output that could not be parsed: ${why}`);
  }
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

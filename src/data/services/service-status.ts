// service_status: systemd unit states via systemctl (JSON list, or `show` for one safe unit name).
import { existsSync } from 'node:fs';
import { whichSystem } from '../../sandbox/capabilities.js';
import { AppError } from '../../shared/errors.js';
import type { AppDeps } from '../../control/deps.js';
import { runHelperBounded, type BoundedRunResult } from '../../execution/helpers/run-helper-bounded.js';

export interface Unit {
  name: string;
  load: string;
  active: string;
  sub: string;
  description: string;
}

const UNIT_NAME = /^[A-Za-z0-9@_.:\\-]{1,200}$/;
const MAX_UNITS = 1000;

/** Whether systemd is the running init (its runtime directory exists). */
export function systemdRunning(runDir = '/run/systemd/system'): boolean {
  return existsSync(runDir);
}

/**
 * systemctl runs through the helper launch path: the read-only sandbox view plus the sockets it
 * talks to systemd through (/run/systemd, /run/dbus, read-only binds: connecting to a socket needs
 * no write access to its mount), no network, `/` as its directory. Without confinement it still
 * runs: a compiled program with our fixed argv (the unit name is validated) that loads no code
 * from the filesystem, started with a scrubbed env (no pager), limits, a deadline and tree kill.
 */
function systemctl(deps: AppDeps, program: string, args: string[], maxBytes: number): Promise<BoundedRunResult> {
  return runHelperBounded(deps, { program, args: ['--no-pager', ...args], binds: ['/run/systemd', '/run/dbus'], unconfined: 'run', env: { SYSTEMD_PAGER: 'cat', SYSTEMD_COLORS: '0' }, maxBytes, timeoutMs: 10000 });
}

/** Lists all units, or the one named; unavailable where systemd is not running. */
export async function serviceStatus(deps: AppDeps, name?: string, runDir?: string): Promise<{ units: Unit[]; truncated: boolean }> {
  if (name !== undefined && (!UNIT_NAME.test(name) || name.startsWith('-'))) {
    throw new AppError('invalid_params', `"${name}" is not a unit name (letters, digits, @ _ . : - only)`);
  }
  const program = whichSystem('systemctl');
  if (!program || !systemdRunning(runDir)) {
    throw new AppError('unavailable', 'systemd is not running on this host (no /run/systemd/system), so there are no service units to report', { hint: 'use process_search to look for the service process instead' });
  }
  if (name !== undefined) return { units: [await showUnit(deps, program, name)], truncated: false };
  const r = await systemctl(deps, program, ['list-units', '--all', '--plain', '--output=json'], 8 << 20);
  if (r.code !== 0) throw new AppError('unavailable', `systemctl failed: ${r.stderr.trim().split('\n')[0]}`);
  const rows = JSON.parse(r.stdout.toString('utf8')) as Array<Record<string, string>>;
  const units = rows.map((u) => ({ name: u.unit, load: u.load, active: u.active, sub: u.sub, description: u.description ?? '' }));
  return { units: units.slice(0, MAX_UNITS), truncated: units.length > MAX_UNITS };
}

async function showUnit(deps: AppDeps, program: string, name: string): Promise<Unit> {
  const r = await systemctl(deps, program, ['show', '-p', 'Id,LoadState,ActiveState,SubState,Description', '--', name], 65536);
  if (r.code !== 0) throw new AppError('unavailable', `systemctl failed: ${r.stderr.trim().split('\n')[0]}`);
  const kv = new Map(r.stdout.toString('utf8').split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]));
  if (kv.get('LoadState') === 'not-found') throw new AppError('not_found', `unit ${name} does not exist`, { hint: 'call service_status without a name to list units' });
  return { name: kv.get('Id') ?? name, load: kv.get('LoadState') ?? '', active: kv.get('ActiveState') ?? '', sub: kv.get('SubState') ?? '', description: kv.get('Description') ?? '' };
}

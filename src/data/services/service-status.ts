// service_status: systemd unit states via systemctl (JSON list, or `show` for one safe unit name).
import { existsSync } from 'node:fs';
import { whichSystem } from '../../sandbox/capabilities.js';
import { AppError } from '../../shared/errors.js';
import { runBounded } from '../spawn-bounded.js';

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

/** Lists all units, or the one named; unavailable where systemd is not running. */
export async function serviceStatus(name?: string, runDir?: string): Promise<{ units: Unit[]; truncated: boolean }> {
  if (name !== undefined && (!UNIT_NAME.test(name) || name.startsWith('-'))) {
    throw new AppError('invalid_params', `"${name}" is not a unit name (letters, digits, @ _ . : - only)`);
  }
  const systemctl = whichSystem('systemctl');
  if (!systemctl || !systemdRunning(runDir)) {
    throw new AppError('unavailable', 'systemd is not running on this host (no /run/systemd/system), so there are no service units to report', { hint: 'use process_search to look for the service process instead' });
  }
  if (name !== undefined) return { units: [await showUnit(systemctl, name)], truncated: false };
  const r = await runBounded(systemctl, ['list-units', '--all', '--no-pager', '--plain', '--output=json'], { maxBytes: 8 << 20, timeoutMs: 10000 });
  if (r.code !== 0) throw new AppError('unavailable', `systemctl failed: ${r.stderr.trim().split('\n')[0]}`);
  const rows = JSON.parse(r.stdout.toString('utf8')) as Array<Record<string, string>>;
  const units = rows.map((u) => ({ name: u.unit, load: u.load, active: u.active, sub: u.sub, description: u.description ?? '' }));
  return { units: units.slice(0, MAX_UNITS), truncated: units.length > MAX_UNITS };
}

async function showUnit(systemctl: string, name: string): Promise<Unit> {
  const r = await runBounded(systemctl, ['show', '--no-pager', '-p', 'Id,LoadState,ActiveState,SubState,Description', '--', name], { maxBytes: 65536, timeoutMs: 10000 });
  const kv = new Map(r.stdout.toString('utf8').split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]));
  if (kv.get('LoadState') === 'not-found') throw new AppError('not_found', `unit ${name} does not exist`, { hint: 'call service_status without a name to list units' });
  return { name: kv.get('Id') ?? name, load: kv.get('LoadState') ?? '', active: kv.get('ActiveState') ?? '', sub: kv.get('SubState') ?? '', description: kv.get('Description') ?? '' };
}

// time_convert: ISO, epoch or natural-language times into an instant shown in a target zone.
import * as chrono from 'chrono-node';
import { DateTime, IANAZone } from 'luxon';
import { AppError } from '../../shared/errors.js';

export interface TimeConvertArgs {
  time: string;
  from_tz?: string;
  to_tz: string;
}

/** Converts `time`; `now` is the reference for relative phrases ("3 hours ago", "tomorrow 9am"). */
export function timeConvert(args: TimeConvertArgs, now: Date) {
  const from = args.from_tz === undefined ? undefined : checkZone(args.from_tz, 'from_tz');
  const to = checkZone(args.to_tz, 'to_tz');
  const { dt, how } = parseTime(args.time.trim(), from ?? 'UTC', now);
  const out = dt.setZone(to);
  return {
    iso: out.toISO({ suppressMilliseconds: true }) ?? '',
    epoch_s: Math.floor(out.toMillis() / 1000),
    epoch_ms: out.toMillis(),
    zone: to,
    offset: out.toFormat('ZZ'),
    input_interpretation: how,
  };
}

function checkZone(z: string, field: string): string {
  if (z.toUpperCase() === 'UTC' || z === 'Z') return 'UTC';
  if (!IANAZone.isValidZone(z)) throw new AppError('invalid_params', `${field} "${z}" is not an IANA time zone such as Europe/Paris or America/New_York`);
  return z;
}

function parseTime(t: string, zone: string, now: Date): { dt: DateTime; how: string } {
  if (/^-?\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    const isMs = Math.abs(n) >= 1e11;
    return { dt: DateTime.fromMillis(isMs ? n : n * 1000, { zone: 'UTC' }), how: isMs ? 'epoch milliseconds' : 'epoch seconds' };
  }
  const iso = DateTime.fromISO(t, { zone, setZone: true });
  if (iso.isValid) return fromIso(iso, t, zone);
  return fromPhrase(t, zone, now);
}

// A wall time in a DST gap does not exist (luxon moves it forward); in an overlap it exists twice.
function fromIso(dt: DateTime, t: string, zone: string): { dt: DateTime; how: string } {
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(t)) return { dt, how: 'ISO 8601 with offset' };
  const wall = DateTime.fromISO(t, { zone: 'UTC' });
  const how = `ISO 8601 local time in ${zone}`;
  if (!sameWall(dt, wall)) {
    return { dt, how: `${how}; ${wall.toFormat('HH:mm')} does not exist there (DST gap), moved to ${dt.toFormat('HH:mm ZZ')}` };
  }
  const twin = [dt.minus({ hours: 1 }), dt.plus({ hours: 1 })].find((x) => sameWall(x, wall));
  if (!twin) return { dt, how };
  return { dt, how: `${how}; ambiguous (DST overlap): used offset ${dt.toFormat('ZZ')}, the other is ${twin.toFormat('ZZ')}` };
}

function sameWall(a: DateTime, w: DateTime): boolean {
  const f = "yyyy-MM-dd'T'HH:mm:ss";
  return a.toFormat(f) === w.toFormat(f);
}

function fromPhrase(t: string, zone: string, now: Date): { dt: DateTime; how: string } {
  const ref = { instant: now, timezone: DateTime.fromJSDate(now).setZone(zone).offset };
  const results = chrono.parse(t, ref, { forwardDate: false });
  if (results.length === 0) {
    throw new AppError('invalid_params', `time "${t}" is not an ISO date, an epoch number or a phrase like "3 hours ago" or "tomorrow 9am"`);
  }
  const date = results[0].start.date();
  return { dt: DateTime.fromJSDate(date, { zone: 'UTC' }), how: `phrase "${results[0].text}" relative to ${now.toISOString()} in ${zone}` };
}

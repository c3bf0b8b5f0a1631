// time_convert: ISO, epoch, phrases with a fixed reference date, DST gap and overlap, bad zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemTools } from '../../src/control/tools/adapters-system.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const NOW = new Date('2024-06-15T12:00:00Z');
const ctx = makeDataDeps({}, () => NOW);
const tools = systemTools(ctx.deps);
const conv = async (args: Record<string, unknown>) => (await call(tools, 'time_convert', args)).data;

test('ISO with offset, epoch seconds and milliseconds', async () => {
  const r = await conv({ time: '2024-01-02T03:04:05+02:00', to_tz: 'Asia/Tokyo' });
  assert.equal(r.iso, '2024-01-02T10:04:05+09:00');
  assert.equal(r.offset, '+09:00');
  assert.equal(r.epoch_s, 1704157445);
  assert.equal((await conv({ time: '1704157445' })).iso, '2024-01-02T01:04:05Z');
  const ms = await conv({ time: '1704157445123' });
  assert.equal(ms.epoch_ms, 1704157445123);
  assert.match(ms.input_interpretation, /milliseconds/);
});

test('phrases are relative to the reference time', async () => {
  assert.equal((await conv({ time: '3 hours ago' })).iso, '2024-06-15T09:00:00Z');
  const t = await conv({ time: 'tomorrow 9am', from_tz: 'Europe/Paris', to_tz: 'Europe/Paris' });
  assert.equal(t.iso, '2024-06-16T09:00:00+02:00');
});

test('DST gap in New York: 02:30 on 2024-03-10 does not exist', async () => {
  const r = await conv({ time: '2024-03-10T02:30:00', from_tz: 'America/New_York', to_tz: 'America/New_York' });
  assert.equal(r.iso, '2024-03-10T03:30:00-04:00');
  assert.match(r.input_interpretation, /DST gap/);
});

test('DST overlap in New York: 01:30 on 2024-11-03 happens twice', async () => {
  const r = await conv({ time: '2024-11-03T01:30:00', from_tz: 'America/New_York', to_tz: 'UTC' });
  assert.match(r.input_interpretation, /ambiguous/);
  assert.ok(r.iso === '2024-11-03T05:30:00Z' || r.iso === '2024-11-03T06:30:00Z', r.iso);
  const plain = await conv({ time: '2024-11-03T03:30:00', from_tz: 'America/New_York' });
  assert.doesNotMatch(plain.input_interpretation, /ambiguous|gap/);
  assert.equal(plain.iso, '2024-11-03T08:30:00Z');
});

test('a bad zone or time is invalid_params naming it', async () => {
  const e = await callError(tools, 'time_convert', { time: 'now', to_tz: 'Mars/Olympus' });
  assert.equal(e.errorClass, 'invalid_params');
  assert.match(e.message, /Mars\/Olympus/);
  assert.match(e.message, /to_tz/);
  assert.equal((await callError(tools, 'time_convert', { time: 'blorp zorg' })).errorClass, 'invalid_params');
});

test.after(() => ctx.cleanup());

// log_tail: backwards reading, contains filter, 5 GB sparse file, encodings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { call, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = fileTools(ctx.deps);

test('last lines of a small file, with and without a trailing newline', async () => {
  writeFileSync(join(ctx.ws, 'a.log'), 'one\ntwo\r\nthree\n');
  assert.deepEqual((await call(tools, 'log_tail', { path: 'a.log', lines: 2 })).data.lines, ['two', 'three']);
  assert.deepEqual((await call(tools, 'log_tail', { path: 'a.log', lines: 10 })).data.lines, ['one', 'two', 'three']);
  writeFileSync(join(ctx.ws, 'b.log'), 'one\ntwo');
  const r = await call(tools, 'log_tail', { path: 'b.log', lines: 1 });
  assert.deepEqual(r.data.lines, ['two']);
  assert.equal(r.data.truncated, true);
  writeFileSync(join(ctx.ws, 'empty.log'), '');
  assert.deepEqual((await call(tools, 'log_tail', { path: 'empty.log' })).data.lines, []);
});

test('lines spanning 64 KiB chunk edges come back whole', async () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `entry ${i} ${'x'.repeat(i % 50)}`);
  writeFileSync(join(ctx.ws, 'big.log'), lines.join('\n') + '\n');
  const r = await call(tools, 'log_tail', { path: 'big.log', lines: 1000 });
  assert.deepEqual(r.data.lines, lines.slice(-1000));
  const f = await call(tools, 'log_tail', { path: 'big.log', lines: 3, contains: 'entry 1234' });
  assert.deepEqual(f.data.lines, lines.filter((l) => l.includes('entry 1234')).slice(-3));
});

test('a 5 GB sparse log: the tail is found without reading the file', async () => {
  const p = join(ctx.ws, 'huge.log');
  const fd = openSync(p, 'w');
  ftruncateSync(fd, 5 * 1024 ** 3);
  closeSync(fd);
  appendFileSync(p, Array.from({ length: 300 }, (_, i) => `tail line ${i}`).join('\n') + '\n');
  const r = await call(tools, 'log_tail', { path: p, lines: 100 });
  assert.equal(r.data.lines.length, 100);
  assert.equal(r.data.lines[99], 'tail line 299');
  assert.ok(r.data.bytes_scanned <= 64 * 1024, `scanned ${r.data.bytes_scanned}`);
  assert.ok(r.data.total_bytes > 5 * 1024 ** 3);
  const c = await call(tools, 'log_tail', { path: p, lines: 5, contains: 'line 7' });
  assert.deepEqual(c.data.lines, ['tail line 75', 'tail line 76', 'tail line 77', 'tail line 78', 'tail line 79']);
});

test('contains over a long file stops at the scan budget and says partial', async () => {
  const p = join(ctx.ws, 'long.log');
  const block = Buffer.from(('z'.repeat(99) + '\n').repeat(10_000)); // ~1 MB
  const fd = openSync(p, 'w');
  for (let i = 0; i < 70; i++) writeFileSync(fd, block);
  closeSync(fd);
  const r = await call(tools, 'log_tail', { path: p, lines: 5, contains: 'never-there' });
  assert.deepEqual(r.data.lines, []);
  assert.equal(r.data.partial, true);
  assert.ok(r.data.bytes_scanned >= 64 * 1024 * 1024 && r.data.bytes_scanned < 66 * 1024 * 1024);
});

test('UTF-16 LE logs are decoded', async () => {
  const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('α\nβ\nγ\n', 'utf16le')]);
  writeFileSync(join(ctx.ws, 'w.log'), body);
  const r = await call(tools, 'log_tail', { path: 'w.log', lines: 2 });
  assert.deepEqual(r.data.lines, ['β', 'γ']);
  assert.equal(r.data.encoding, 'utf-16le');
});

test.after(() => ctx.cleanup());

// read_file: byte and line windows, encodings, binary refusal, UTF-8 boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = fileTools(ctx.deps);
const put = (name: string, data: Buffer | string) => (writeFileSync(join(ctx.ws, name), data), name);

const text = 'héllo wörld — ünïcode ✓\nline two\n';
const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const be = Buffer.from(text, 'utf16le');
be.swap16();
const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);

test('encoding table: UTF-8, UTF-8 BOM, UTF-16 LE/BE with BOM, Latin-1', async () => {
  const cases: Array<[string, Buffer | string, string, string]> = [
    ['u8.txt', text, 'utf-8', text],
    ['u8bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'utf-8', text],
    ['le.txt', utf16le, 'utf-16le', text],
    ['be.txt', utf16be, 'utf-16be', text],
    ['l1.txt', Buffer.from('caf\xe9 na\xefve\n', 'latin1'), 'latin1', 'café naïve\n'],
  ];
  for (const [name, data, enc, want] of cases) {
    const r = await call(tools, 'read_file', { path: put(name, data) });
    assert.equal(r.data.encoding, enc, name);
    assert.equal(r.data.content, want, name);
    assert.equal(r.data.eof, true);
    assert.equal(r.data.next_offset, null);
  }
});

test('binary files are refused with a hint', async () => {
  const bin = Buffer.alloc(4096, 1);
  bin[100] = 0;
  const e = await callError(tools, 'read_file', { path: put('blob.bin', bin) });
  assert.equal(e.errorClass, 'invalid_params');
  assert.match(e.message, /binary/);
  assert.equal((await callError(tools, 'log_tail', { path: 'blob.bin' })).errorClass, 'invalid_params');
});

test('byte windows never split a UTF-8 character and chain with next_offset', async () => {
  const body = '✓'.repeat(1000); // 3 bytes each
  put('checks.txt', body);
  let offset = 0;
  let got = '';
  for (let i = 0; i < 100; i++) {
    const r = await call(tools, 'read_file', { path: 'checks.txt', offset, max_bytes: 1000 });
    assert.ok(!r.data.content.includes('\uFFFD'));
    got += r.data.content;
    if (r.data.eof) break;
    offset = r.data.next_offset;
  }
  assert.equal(got, body);
  assert.equal((await call(tools, 'read_file', { path: 'checks.txt', offset: 999999 })).data.content, '');
});

test('UTF-16 byte windows stay on code units', async () => {
  const r = await call(tools, 'read_file', { path: put('le2.txt', utf16le), offset: 3, max_bytes: 7 });
  assert.equal(r.data.offset, 2);
  assert.equal(r.data.content, 'hél');
});

test('line windows: start_line, max_lines, max_bytes, last line without newline', async () => {
  const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}`);
  put('lines.txt', lines.join('\n'));
  const r = await call(tools, 'read_file', { path: 'lines.txt', start_line: 40_000, max_lines: 3 });
  assert.equal(r.data.content, 'line 40000\nline 40001\nline 40002\n');
  assert.deepEqual(r.data.lines, { start: 40_000, count: 3 });
  const next = await call(tools, 'read_file', { path: 'lines.txt', offset: r.data.next_offset, max_bytes: 11 });
  assert.equal(next.data.content, 'line 40003\n');
  const last = await call(tools, 'read_file', { path: 'lines.txt', start_line: 49_999, max_lines: 10 });
  assert.equal(last.data.content, 'line 49999\nline 50000');
  assert.equal(last.data.eof, true);
  assert.equal(last.data.lines.count, 2);
  const capped = await call(tools, 'read_file', { path: 'lines.txt', start_line: 1, max_lines: 100, max_bytes: 21 });
  assert.equal(capped.data.content, 'line 1\nline 2\nline 3\n');
  const past = await call(tools, 'read_file', { path: 'lines.txt', start_line: 60_000, max_lines: 1 });
  assert.equal(past.data.content, '');
  assert.equal(past.data.eof, true);
});

test('UTF-16 line windows', async () => {
  const r = await call(tools, 'read_file', { path: put('be2.txt', utf16be), start_line: 2, max_lines: 1 });
  assert.equal(r.data.content, 'line two\n');
});

test('a directory is refused with a hint to list_files', async () => {
  const e = await callError(tools, 'read_file', { path: '.' });
  assert.equal(e.errorClass, 'invalid_params');
});

test.after(() => ctx.cleanup());

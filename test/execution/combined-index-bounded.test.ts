// Red team F1: 8 concurrent job_output stream=combined max_bytes=1MiB on a job that alternated
// 1-byte writes to stdout and stderr held the server 22 s: every stream switch in the window cost
// two index reads plus an open/read/close of a log. Now one read walks at most MAX_RUNS_PER_READ
// switches, reads the index once and each log once; a window with more switches comes back shorter
// (next_offset says where to continue, a tail keeps its end) and the pieces still add up exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CombinedIndexWriter, MAX_RUNS_PER_READ, readCombinedWindow } from '../../src/execution/jobs/combined-index.js';

const SWITCHES = MAX_RUNS_PER_READ * 3 + 17;
const dir = mkdtempSync(join(tmpdir(), 'wb-cidx-'));
const logs: [string, string] = [join(dir, 'stdout.log'), join(dir, 'stderr.log')];
const index = join(dir, 'combined.idx');
// stdout gets a..z cycling, stderr 0..9 cycling, one byte per switch; the combined stream is known.
const out: number[] = [];
const err: number[] = [];
const combined: number[] = [];
const w = new CombinedIndexWriter(index);
for (let i = 0; i < SWITCHES; i++) {
  const s = (i % 2) as 0 | 1;
  const byte = s === 0 ? 0x61 + (out.length % 26) : 0x30 + (err.length % 10);
  w.add(s, s === 0 ? out.length : err.length, 1);
  (s === 0 ? out : err).push(byte);
  combined.push(byte);
}
w.close();
writeFileSync(logs[0], Buffer.from(out));
writeFileSync(logs[1], Buffer.from(err));
const expected = Buffer.from(combined).toString('latin1');
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a 1 MiB window over one-byte stream switches is cut at the run bound, and continuing reads rebuild the stream', () => {
  let text = '';
  let offset = 0;
  let reads = 0;
  for (;;) {
    const r = readCombinedWindow(index, logs, { offset, maxBytes: 1 << 20 });
    assert.equal(r.total_bytes, SWITCHES);
    assert.ok(r.next_offset - r.offset <= MAX_RUNS_PER_READ, `one read covered ${r.next_offset - r.offset} runs`);
    text += r.data;
    reads++;
    if (r.next_offset >= r.total_bytes) break;
    assert.ok(r.next_offset > offset, 'every read makes progress');
    offset = r.next_offset;
  }
  assert.equal(text, expected);
  assert.equal(reads, Math.ceil(SWITCHES / MAX_RUNS_PER_READ));
});

test('a tail window keeps the end of the stream under the run bound', () => {
  const r = readCombinedWindow(index, logs, { maxBytes: 1 << 20, tailByDefault: true });
  assert.equal(r.next_offset, SWITCHES);
  assert.equal(r.offset, SWITCHES - MAX_RUNS_PER_READ);
  assert.equal(r.data, expected.slice(r.offset));
});

test('windows within the bound are exact at any offset', () => {
  for (const [offset, maxBytes] of [[0, 1], [1, 7], [12345, 999], [SWITCHES - 5, 100]] as const) {
    const r = readCombinedWindow(index, logs, { offset, maxBytes });
    assert.equal(r.data, expected.slice(offset, offset + maxBytes), `offset ${offset} max ${maxBytes}`);
  }
});

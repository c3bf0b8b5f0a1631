// The stdio line splitter: lines across chunk boundaries, the limit in bytes, oversized lines dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLineSplitter, type OversizedLine } from '../../src/control/stdio-line-split.js';

function run(max: number, chunks: Buffer[]) {
  const lines: string[] = [];
  const over: OversizedLine[] = [];
  const s = createLineSplitter(max, { line: (b) => lines.push(b.toString('utf8')), oversized: (o) => over.push(o) });
  for (const c of chunks) s.push(c);
  s.end();
  return { lines, over };
}

test('splits lines across chunks, keeps multibyte characters whole, and passes a line of exactly the limit', () => {
  const text = 'ab€\ncd\n' + 'x'.repeat(10) + '\nlast';
  const bytes = Buffer.from(text);
  const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
  assert.deepEqual(run(10, chunks).lines, ['ab€', 'cd', 'x'.repeat(10), 'last']);
});

test('drops a line over the limit (counted in bytes), keeps its length and ends, and goes on', () => {
  const big = '{"id":7,"p":"' + '€'.repeat(5000) + '"}';
  const chunks = [Buffer.from('ok1\n' + big.slice(0, 100)), Buffer.from(big.slice(100) + '\nok2\n')];
  const { lines, over } = run(4096, chunks);
  assert.deepEqual(lines, ['ok1', 'ok2']);
  assert.equal(over.length, 1);
  assert.equal(over[0]!.bytes, Buffer.byteLength(big));
  assert.ok(over[0]!.head.toString().startsWith('{"id":7,'));
  assert.ok(over[0]!.tail.toString().endsWith('€"}'));
});

test('an oversized line without a final newline is reported at the end of the stream', () => {
  const { lines, over } = run(8, [Buffer.from('a\n'), Buffer.from('y'.repeat(100))]);
  assert.deepEqual(lines, ['a']);
  assert.equal(over[0]!.bytes, 100);
});

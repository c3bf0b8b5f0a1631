// Red team F2: a file_search match on the last line of a 300 MB file held the event loop for 8 s
// while ripgrep's match was re-read through a verified descriptor (synchronously, from byte 0).
// The re-read is now asynchronous and bounded by a deadline; files not verified in time are
// dropped and counted (file_search turns the count into a note and partial: true).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { verifyMatches } from '../../src/data/search/verify-matches.js';
import type { SearchMatch } from '../../src/data/search/search-types.js';
import { makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const LINES = 32 * 1024 * 1024;
// 32 MiB of empty lines, then the needle on the last line.
const fd = openSync(join(ctx.ws, 'big.txt'), 'w');
const block = Buffer.alloc(1 << 20, 0x0a);
for (let i = 0; i < LINES / block.length; i++) writeSync(fd, block);
writeSync(fd, 'NEEDLE\n');
closeSync(fd);
const match: SearchMatch = { path: 'big.txt', line: LINES + 1, column: 1, text: 'NEEDLE', before: [], after: [] };

test.after(() => ctx.cleanup());

test('verifying a match deep in a big file lets other work run first (ordering, not timing)', async () => {
  const order: string[] = [];
  const verify = verifyMatches(ctx.ws, [match], Date.now() + 600_000).then((v) => (order.push('verified'), v));
  const cheap = new Promise<void>((r) => setImmediate(r)).then(() => order.push('cheap'));
  const [v] = await Promise.all([verify, cheap]);
  assert.deepEqual(order, ['cheap', 'verified']);
  assert.deepEqual(v.matches, [match], 'the match is really on that line');
  assert.equal(v.unverifiedFiles, 0);
});

test('a deadline that passes drops the unverified file and counts it', async () => {
  const v = await verifyMatches(ctx.ws, [match], Date.now() - 1);
  assert.deepEqual(v.matches, []);
  assert.equal(v.unverifiedFiles, 1);
});

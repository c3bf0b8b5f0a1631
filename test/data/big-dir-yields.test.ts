// Red team F5: list_files / disk_usage on one directory of 300k entries held the event loop 4–5 s
// (readdirSync plus one lstatSync per entry, all at once, before the first yield). The listing is
// now read in batches with turns of the event loop between them. Ordering, not timing: a chain of
// setImmediate turns runs alongside the call, and it must advance many times before the call ends
// (a listing done in one synchronous go lets it advance only between the call's few awaits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { readDirVerifiedAsync } from '../../src/data/read-dir-verified.js';
import { call, makeDataDeps } from '../helpers/data-deps.js';

const ENTRIES = 60_000;
const ctx = makeDataDeps();
const big = join(ctx.ws, 'big');
mkdirSync(big);
for (let i = 0; i < ENTRIES; i++) closeSync(openSync(join(big, `f${i}`), 'w'));
const tools = fileTools(ctx.deps);
test.after(() => ctx.cleanup());

/** Runs `work` while counting event-loop turns (a self-rescheduling setImmediate). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
}

test('list_files limit=10 on a huge directory gives the event loop many turns', async () => {
  const { result, turns } = await turnsDuring(() => call(tools, 'list_files', { path: big, limit: 10 }));
  assert.equal(result.data.files.length, 10);
  assert.equal(result.data.files[0].path, 'f0');
  assert.ok(turns >= 100, `only ${turns} event-loop turns while listing ${ENTRIES} entries`);
});

test('disk_usage on a huge directory gives the event loop many turns and counts every file', async () => {
  const { result, turns } = await turnsDuring(() => call(tools, 'disk_usage', { path: big, max_depth: 1, limit: 5 }));
  assert.equal(result.data.total_files, ENTRIES);
  assert.ok(turns >= 100, `only ${turns} event-loop turns while measuring ${ENTRIES} entries`);
});

test('the async listing stops at its deadline and says so', async () => {
  const r = await readDirVerifiedAsync(big, true, Date.now() - 1);
  assert.equal(r.partial, true);
  assert.ok(r.dirents.length < ENTRIES);
});

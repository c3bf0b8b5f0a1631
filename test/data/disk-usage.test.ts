// disk_usage: sizes by entry, hard links once, symlinks not followed, depth and limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { call, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = fileTools(ctx.deps);
const w = (rel: string, size: number) => {
  mkdirSync(join(ctx.ws, rel, '..'), { recursive: true });
  writeFileSync(join(ctx.ws, rel), Buffer.alloc(size, 1));
};
w('big/a.bin', 400_000);
w('big/sub/b.bin', 200_000);
w('small/c.bin', 10_000);
w('node_modules/m/x.bin', 100_000);
w('top.bin', 50_000);
linkSync(join(ctx.ws, 'big/a.bin'), join(ctx.ws, 'small/hardlink.bin'));
symlinkSync('/usr', join(ctx.ws, 'usr-link'));

test('entries are sorted by size, each inode counted once, symlinks not followed', async () => {
  const r = await call(tools, 'disk_usage', { path: ctx.ws });
  const names = r.data.entries.map((e: { path: string }) => e.path);
  assert.deepEqual(names.slice(0, 4), ['big', 'node_modules', 'top.bin', 'small']);
  const big = r.data.entries[0];
  assert.ok(big.size_bytes >= 600_000 && big.size_bytes < 700_000, String(big.size_bytes));
  assert.equal(big.files, 2);
  const small = r.data.entries.find((e: { path: string }) => e.path === 'small');
  assert.ok(small.size_bytes < 40_000, 'hard link counted once');
  assert.ok(r.data.total_bytes < 1_000_000, 'symlink to /usr not followed');
  assert.equal(r.data.total_files, 7);
  assert.equal(r.data.partial, false);
});

test('max_depth 2 lists nested entries; limit truncates', async () => {
  const r = await call(tools, 'disk_usage', { path: ctx.ws, max_depth: 2, limit: 3 });
  assert.deepEqual(r.data.entries.map((e: { path: string }) => e.path), ['big', 'big/a.bin', 'big/sub']);
  assert.equal(r.data.truncated, true);
});

test.after(() => ctx.cleanup());

// The 100k-file tree: pagination stays stable, both search engines agree, disk_usage counts everything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { makeTree } from '../fixtures/data-tree.js';
import { call, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const total = makeTree(ctx.ws);
const rg = fileTools(ctx.deps, { searchEngine: 'ripgrep' });
const builtin = fileTools(ctx.deps, { searchEngine: 'builtin' });

test('list_files pages through 100k files by name without repeats or gaps', async () => {
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  let prev = '';
  do {
    const r = await call(rg, 'list_files', { path: ctx.ws, recursive: true, type: 'file', limit: 1000, cursor });
    for (const f of r.data.files) {
      assert.ok(f.path > prev, `${f.path} after ${prev}`);
      prev = f.path;
      seen.add(f.path);
    }
    cursor = r.data.next_cursor ?? undefined;
    pages++;
  } while (cursor && pages < 200);
  assert.equal(seen.size, total);
  assert.equal(pages, 100);
});

test('list_files by size scans the whole tree and pages stably', async () => {
  const a = await call(rg, 'list_files', { path: ctx.ws, recursive: true, type: 'file', sort_by: 'size', order: 'desc', limit: 60 });
  assert.equal(a.data.partial, false);
  assert.ok(a.data.scanned >= total);
  const sizes = a.data.files.map((f: { size_bytes: number }) => f.size_bytes);
  assert.deepEqual(sizes, [...sizes].sort((x: number, y: number) => y - x));
  assert.ok(a.data.files.slice(0, 50).every((f: { path: string }) => f.path.endsWith('0.txt')), 'needle files are the largest');
  const b = await call(rg, 'list_files', { path: ctx.ws, recursive: true, type: 'file', sort_by: 'size', order: 'desc', limit: 60, cursor: a.data.next_cursor });
  const first = new Set(a.data.files.map((f: { path: string }) => f.path));
  assert.ok(b.data.files.every((f: { path: string }) => !first.has(f.path)));
});

test('file_search: ripgrep and the built-in engine agree on 100k files', async () => {
  const b = await call(builtin, 'file_search', { path: ctx.ws, query: 'needle', max_results: 1000, time_budget_ms: 30000 });
  assert.equal(b.data.matches.length, total / 2000);
  assert.equal(b.data.truncated, false);
  if (ctx.deps.capabilities().ripgrep) {
    const r = await call(rg, 'file_search', { path: ctx.ws, query: 'needle', max_results: 1000 });
    assert.deepEqual(r.data.matches, b.data.matches);
  }
});

test('disk_usage counts all 100k files', async () => {
  const r = await call(rg, 'disk_usage', { path: ctx.ws, time_budget_ms: 30000 });
  assert.equal(r.data.total_files, total);
  assert.equal(r.data.entries.length, 50);
  assert.equal(r.data.truncated, true);
});

test.after(() => ctx.cleanup());

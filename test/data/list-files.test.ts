// list_files: filters, sorting, stable cursor pagination, skip dirs, .gitignore, symlinks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = fileTools(ctx.deps);
const w = (rel: string, body: string | number, mtime?: number) => {
  const p = join(ctx.ws, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, typeof body === 'number' ? Buffer.alloc(body, 97) : body);
  if (mtime !== undefined) utimesSync(p, mtime, mtime);
};
w('a.txt', 10, 1000);
w('a-b.txt', 30, 3000);
w('a/inner.ts', 20, 2000);
w('a/deep/x.ts', 50, 5000);
w('b.log', 40, 4000);
w('.hidden', 5);
w('node_modules/pkg/index.js', 100);
w('gen/out.txt', 60);
w('.gitignore', 'gen/\n*.tmp\n');
w('junk.tmp', 1);
symlinkSync('a.txt', join(ctx.ws, 'link-to-a'));

const names = (r: { data: { files: Array<{ path: string }> } }) => r.data.files.map((f) => f.path);

test('non-recursive listing is sorted by name and skips hidden, ignored and skip dirs', async () => {
  const r = await call(tools, 'list_files', { path: ctx.ws });
  assert.deepEqual(names(r), ['a', 'a-b.txt', 'a.txt', 'b.log', 'link-to-a']);
  assert.equal(r.data.truncated, false);
  assert.equal(r.data.next_cursor, null);
  const link = r.data.files.find((f: { path: string }) => f.path === 'link-to-a');
  assert.equal(link.type, 'symlink');
});

test('recursive name order puts a directory\'s children right after it, in both orders', async () => {
  const asc = names(await call(tools, 'list_files', { path: ctx.ws, recursive: true }));
  assert.deepEqual(asc, ['a', 'a/deep', 'a/deep/x.ts', 'a/inner.ts', 'a-b.txt', 'a.txt', 'b.log', 'link-to-a']);
  const desc = names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, order: 'desc' }));
  assert.deepEqual(desc, [...asc].reverse());
});

test('include_skipped and include_hidden bring back what is skipped by default', async () => {
  const all = names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, include_skipped: true, include_hidden: true }));
  for (const p of ['node_modules/pkg/index.js', 'gen/out.txt', 'junk.tmp', '.hidden', '.gitignore']) assert.ok(all.includes(p), p);
});

test('pattern, type, size and modified filters', async () => {
  assert.deepEqual(names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, pattern: '*.ts' })), ['a/deep/x.ts', 'a/inner.ts']);
  assert.deepEqual(names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, pattern: 'a/*.ts' })), ['a/inner.ts']);
  assert.deepEqual(names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, type: 'dir' })), ['a', 'a/deep']);
  const sized = await call(tools, 'list_files', { path: ctx.ws, recursive: true, type: 'file', min_size_bytes: 20, max_size_bytes: 40 });
  assert.deepEqual(names(sized), ['a/inner.ts', 'a-b.txt', 'b.log']);
  const recent = await call(tools, 'list_files', { path: ctx.ws, recursive: true, type: 'file', modified_after: new Date(3500_000).toISOString() });
  assert.deepEqual(names(recent), ['a/deep/x.ts', 'b.log']);
  const bad = await callError(tools, 'list_files', { path: ctx.ws, modified_after: 'yesterday-ish' });
  assert.equal(bad.errorClass, 'invalid_params');
});

test('size and modified sorts page stably with the cursor', async () => {
  const bySize = await call(tools, 'list_files', { path: ctx.ws, recursive: true, type: 'file', sort_by: 'size', order: 'desc' });
  assert.deepEqual(names(bySize), ['a/deep/x.ts', 'b.log', 'a-b.txt', 'a/inner.ts', 'a.txt']);
  const pages: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i++) {
    const r = await call(tools, 'list_files', { path: ctx.ws, recursive: true, type: 'file', sort_by: 'modified', limit: 2, cursor });
    pages.push(...names(r));
    cursor = r.data.next_cursor ?? undefined;
    if (!cursor) break;
    assert.equal(r.data.truncated, true);
  }
  assert.deepEqual(pages, ['a.txt', 'a/inner.ts', 'a-b.txt', 'b.log', 'a/deep/x.ts']);
});

test('name order pagination visits every entry once', async () => {
  const all = names(await call(tools, 'list_files', { path: ctx.ws, recursive: true }));
  for (const order of ['asc', 'desc']) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await call(tools, 'list_files', { path: ctx.ws, recursive: true, order, limit: 3, cursor });
      seen.push(...names(r));
      cursor = r.data.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, order === 'asc' ? all : [...all].reverse());
  }
});

test('a cursor from another sort order is refused; a file path is refused', async () => {
  const r = await call(tools, 'list_files', { path: ctx.ws, recursive: true, limit: 1 });
  const e = await callError(tools, 'list_files', { path: ctx.ws, recursive: true, sort_by: 'size', cursor: r.data.next_cursor });
  assert.equal(e.errorClass, 'invalid_params');
  assert.equal((await callError(tools, 'list_files', { path: join(ctx.ws, 'a.txt') })).errorClass, 'invalid_params');
});

test('follow_symlinks reports the target type and max_depth bounds the walk', async () => {
  const r = await call(tools, 'list_files', { path: ctx.ws, follow_symlinks: true });
  assert.equal(r.data.files.find((f: { path: string }) => f.path === 'link-to-a').type, 'file');
  const d2 = names(await call(tools, 'list_files', { path: ctx.ws, recursive: true, max_depth: 2 }));
  assert.ok(d2.includes('a/deep') && !d2.includes('a/deep/x.ts'));
  const f = r.data.files.find((x: { path: string }) => x.path === 'a.txt');
  assert.equal(f.size_bytes, 10);
  assert.equal(f.is_executable, false);
});

test.after(() => ctx.cleanup());

// file_search: ripgrep and the built-in engine give the same matches on the same fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const hasRg = ctx.deps.capabilities().ripgrep !== undefined;
const engines = { ripgrep: fileTools(ctx.deps, { searchEngine: 'ripgrep' }), builtin: fileTools(ctx.deps, { searchEngine: 'builtin' }) };
const w = (rel: string, body: string | Buffer) => {
  mkdirSync(join(ctx.ws, rel, '..'), { recursive: true });
  writeFileSync(join(ctx.ws, rel), body);
};
w('src/app.ts', 'import x from "y";\nconst Needle = 1;\nfunction find() {\n  return needle + Needle;\n}\n');
w('src/util/strings.ts', 'export const a = "needle in a haystack";\n// TODO: needle\n');
w('README.md', '# Title\nThe needle is here.\nline3\nline4\n');
w('unicode.txt', 'café ✓ needle\n');
w('node_modules/dep/index.js', 'needle in node_modules\n');
w('gen/out.js', 'needle generated\n');
w('.gitignore', 'gen/\n');
w('.hidden/h.txt', 'needle hidden\n');
w('bin.dat', Buffer.concat([Buffer.from('needle'), Buffer.alloc(10), Buffer.from('needle')]));
w('crlf.txt', 'first\r\nneedle crlf\r\n');

type M = { path: string; line: number; column: number; text: string; before: string[]; after: string[] };
const key = (ms: M[]) => ms.map((m) => `${m.path}:${m.line}:${m.column}:${m.text}|${m.before.join('/')}|${m.after.join('/')}`);

async function both(args: Record<string, unknown>): Promise<M[]> {
  const b = await call(engines.builtin, 'file_search', { path: ctx.ws, ...args });
  assert.equal(b.data.engine, 'builtin');
  if (!hasRg) return b.data.matches;
  const r = await call(engines.ripgrep, 'file_search', { path: ctx.ws, ...args });
  assert.equal(r.data.engine, 'ripgrep');
  assert.deepEqual(key(r.data.matches), key(b.data.matches), JSON.stringify(args));
  assert.equal(r.data.truncated, b.data.truncated);
  return b.data.matches;
}

test('smart case literal search skips binary, ignored, hidden and skip dirs', async () => {
  const ms = await both({ query: 'needle' });
  assert.deepEqual(ms.map((m) => `${m.path}:${m.line}`), ['README.md:2', 'crlf.txt:2', 'src/app.ts:2', 'src/app.ts:4', 'src/util/strings.ts:1', 'src/util/strings.ts:2', 'unicode.txt:1']);
  assert.equal(ms.find((m) => m.path === 'unicode.txt')!.column, 8);
  assert.equal(ms.find((m) => m.path === 'crlf.txt')!.text, 'needle crlf');
});

test('upper case in the query makes it case sensitive; case_sensitive overrides', async () => {
  assert.deepEqual((await both({ query: 'Needle' })).map((m) => `${m.path}:${m.line}`), ['src/app.ts:2', 'src/app.ts:4']);
  assert.equal((await both({ query: 'NEEDLE', case_sensitive: false })).length, 7);
});

test('regex, glob, context lines', async () => {
  const re = await both({ query: 'need(le)? (in|is)', regex: true });
  assert.deepEqual(re.map((m) => m.path), ['README.md', 'src/util/strings.ts']);
  assert.deepEqual((await both({ query: 'needle', glob: '*.md' })).map((m) => m.path), ['README.md']);
  const c = await both({ query: 'return', context_lines: 2 });
  assert.deepEqual(c[0].before, ['const Needle = 1;', 'function find() {']);
  assert.deepEqual(c[0].after, ['}']);
  const near = await both({ query: 'needle', glob: 'strings.ts', context_lines: 1 });
  assert.deepEqual(near[0].after, ['// TODO: needle']);
  assert.deepEqual(near[1].before, ['export const a = "needle in a haystack";']);
});

test('include_hidden and include_skipped widen the search', async () => {
  const all = await both({ query: 'needle', include_hidden: true, include_skipped: true });
  const paths = all.map((m) => m.path);
  for (const p of ['.hidden/h.txt', 'node_modules/dep/index.js', 'gen/out.js']) assert.ok(paths.includes(p), p);
});

test('max_results truncates', async () => {
  for (const tools of Object.values(engines)) {
    const r = await call(tools, 'file_search', { path: ctx.ws, query: 'needle', max_results: 2 });
    assert.equal(r.data.matches.length, 2);
    assert.equal(r.data.truncated, true);
  }
});

test('a bad regex is invalid_params', async () => {
  for (const tools of Object.values(engines)) {
    assert.equal((await callError(tools, 'file_search', { path: ctx.ws, query: 'a(b', regex: true })).errorClass, 'invalid_params');
  }
});

test('long lines are capped at 500 characters', async () => {
  w('long/long.txt', 'x'.repeat(5000) + 'needle' + 'y'.repeat(100) + '\n');
  const ms = await both({ query: 'needle', path: join(ctx.ws, 'long') });
  assert.equal(ms[0].text.length, 501);
  assert.equal(ms[0].column, 5001);
});

test.after(() => ctx.cleanup());

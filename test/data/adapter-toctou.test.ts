// Check-then-use races in the unsandboxed adapters, made deterministic: the tree is changed between
// the policy check and the open by calling the two steps separately. Plus FIFOs never block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, readSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { openCheckedFile, openDirVerified, openFileVerifiedSync, openVerified, readDirVerified } from '../../src/data/open-checked.js';
import { resolveReadPath } from '../../src/data/resolve-path.js';
import { searchFiles } from '../../src/data/search/search-files.js';
import { rgArgs } from '../../src/data/search/rg-args.js';
import { verifyMatches } from '../../src/data/search/verify-matches.js';
import type { SearchArgs, SearchMatch } from '../../src/data/search/search-types.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = fileTools(ctx.deps);
const TOKEN = 'wb-state-token-0123456789';
writeFileSync(join(ctx.stateDir, 'api-token'), `${TOKEN}\n`);
writeFileSync(join(ctx.ws, 'plain.txt'), 'plain text\n');
execFileSync('mkfifo', [join(ctx.ws, 'pipe')]);

test.after(() => ctx.cleanup());

// A fresh directory `name` holding a decoy api-token; swap() replaces it with a symlink to the state dir.
function swappable(name: string) {
  const dir = join(ctx.ws, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'api-token'), 'decoy\n');
  return {
    dir,
    file: join(dir, 'api-token'),
    swap: () => (renameSync(dir, `${dir}.orig`), symlinkSync(ctx.stateDir, dir)),
  };
}

async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`still blocked after ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

for (const name of ['read_file', 'log_tail']) {
  test(`${name} on a FIFO fails fast with "not a regular file"`, async () => {
    const e = await within(2000, callError(tools, name, { path: join(ctx.ws, 'pipe') }));
    assert.equal(e.errorClass, 'invalid_params');
    assert.match(e.message, /not a regular file/);
  });
}

test('many FIFO reads in a row do not stall file I/O (no libuv thread left blocked)', async () => {
  const errs = await within(3000, Promise.all(Array.from({ length: 8 }, (_, i) => callError(tools, i % 2 ? 'log_tail' : 'read_file', { path: join(ctx.ws, 'pipe') }))));
  assert.ok(errs.every((e) => e.errorClass === 'invalid_params'));
  const r = await within(3000, call(tools, 'read_file', { path: join(ctx.ws, 'plain.txt') }));
  assert.equal(r.data.content, 'plain text\n');
});

test('openCheckedFile opens and verifies an ordinary file', async () => {
  const f = await openCheckedFile(ctx.deps, 'plain.txt', { kind: 'file' });
  try {
    assert.equal(f.real, join(ctx.ws, 'plain.txt'));
    assert.ok(f.stat.isFile());
  } finally {
    await f.fh.close();
  }
});

test('check, then swap a directory for a symlink to the state dir, then open: refused', async () => {
  const s = swappable('race-open');
  const real = resolveReadPath(ctx.deps, s.file);
  assert.equal(real, s.file);
  s.swap();
  await assert.rejects(openVerified(ctx.deps, real, { kind: 'file' }), (err: { errorClass?: string; message: string }) => {
    assert.equal(err.errorClass, 'path_denied');
    assert.doesNotMatch(err.message, new RegExp(TOKEN));
    return true;
  });
  // The same request made now is refused by the ordinary check as well.
  assert.equal((await callError(tools, 'read_file', { path: s.file })).errorClass, 'path_denied');
});

test('final component swapped for a symlink after the check: O_NOFOLLOW refuses it', async () => {
  mkdirSync(join(ctx.ws, 'race-last'));
  const p = join(ctx.ws, 'race-last', 'f.txt');
  writeFileSync(p, 'ok\n');
  const real = resolveReadPath(ctx.deps, p);
  renameSync(p, `${p}.orig`);
  symlinkSync(join(ctx.stateDir, 'api-token'), p);
  await assert.rejects(openVerified(ctx.deps, real, { kind: 'file' }), { errorClass: 'path_denied' });
});

test('walk helpers: a directory or file swapped after it was listed yields nothing from the state dir', () => {
  const s = swappable('race-walk');
  const before = readDirVerified(s.dir, true);
  assert.deepEqual(before.dirents.map((d) => d.name), ['api-token']);
  assert.ok(before.stats?.get('api-token')?.isFile());
  s.swap();
  assert.deepEqual(readDirVerified(s.dir, true).dirents, []);
  assert.equal(openDirVerified(s.dir), null);
  assert.equal(openFileVerifiedSync(s.file), null);
  // The real directory is still readable under its real name.
  const fd = openFileVerifiedSync(join(`${s.dir}.orig`, 'api-token'));
  assert.notEqual(fd, null);
  const buf = Buffer.alloc(16);
  assert.equal(buf.subarray(0, readSync(fd!, buf, 0, 16, 0)).toString(), 'decoy\n');
  closeSync(fd!);
});

test('walk helpers refuse FIFOs as files', () => {
  assert.equal(openFileVerifiedSync(join(ctx.ws, 'pipe')), null);
});

test('ripgrep matches are only returned when the verified file has the same lines', async () => {
  const s = swappable('race-rg');
  const m = (text: string): SearchMatch => ({ path: 'race-rg/api-token', line: 1, column: 1, text, before: [], after: [] });
  const ok = m('decoy');
  const verify = async (ms: SearchMatch[]) => (await verifyMatches(ctx.ws, ms, Date.now() + 60_000)).matches;
  assert.deepEqual(await verify([ok]), [ok]);
  // rg read the state dir through a swapped directory: the line is not in the verified file.
  assert.deepEqual(await verify([m(TOKEN)]), []);
  s.swap();
  // Swapped now: the path cannot be verified at all.
  assert.deepEqual(await verify([ok, m(TOKEN)]), []);
});

test('ripgrep never follows symlinks', () => {
  const args: SearchArgs = { query: 'x', regex: false, path: '.', context_lines: 0, max_results: 10, time_budget_ms: 1000, include_hidden: true, include_skipped: true };
  const a = rgArgs(ctx.deps, args);
  assert.ok(a.includes('--no-follow'));
  assert.ok(!a.includes('--follow') && !a.includes('-L'));
});

test('adapters on a directory swapped for a symlink to the state dir never return its names or content', async () => {
  const s = swappable('race-tools');
  s.swap();
  const listed = await call(tools, 'list_files', { path: ctx.ws, recursive: true, include_hidden: true });
  assert.ok(!listed.data.files.some((f: { path: string }) => f.path.startsWith('race-tools/')));
  for (const engine of ['ripgrep', 'builtin'] as const) {
    const r = await searchFiles(ctx.deps, { query: TOKEN, regex: false, path: ctx.ws, context_lines: 0, max_results: 10, time_budget_ms: 5000, include_hidden: true, include_skipped: true }, engine);
    assert.equal(r.matches.length, 0, engine);
  }
  const du = await call(tools, 'disk_usage', { path: ctx.ws, max_depth: 5 });
  assert.ok(!du.data.entries.some((e: { path: string }) => e.path.startsWith('race-tools/')));
});

// Every adapter that takes a path: attacks are refused with path_denied, legitimate paths keep working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { gitTools } from '../../src/control/tools/adapters-git.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = [...fileTools(ctx.deps), ...gitTools(ctx.deps)];
const outside = mkdtempSync(join(tmpdir(), 'wb-outside-'));
writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
writeFileSync(join(ctx.stateDir, 'api-key'), 'k\n');
mkdirSync(join(ctx.ws, 'sub'));
writeFileSync(join(ctx.ws, 'sub', 'a.txt'), 'hello workspace\n');
symlinkSync('/etc/shadow', join(ctx.ws, 'shadow-link'));
symlinkSync(outside, join(ctx.ws, 'outside-link'));
execFileSync('git', ['init', '-q', ctx.ws]);

// Each tool with the extra arguments it needs; `dir` says whether it takes a directory.
const PATH_TOOLS: Array<{ name: string; dir: boolean; extra?: Record<string, unknown> }> = [
  { name: 'read_file', dir: false },
  { name: 'log_tail', dir: false },
  { name: 'list_files', dir: true },
  { name: 'file_search', dir: true, extra: { query: 'secret' } },
  { name: 'disk_usage', dir: true },
  { name: 'git_status', dir: true },
  { name: 'git_log', dir: true },
  { name: 'git_diff', dir: true },
];

const ATTACKS: Array<{ label: string; path: () => string }> = [
  { label: 'relative ../../etc/shadow', path: () => '../../../../../../etc/shadow' },
  { label: 'absolute /etc/shadow', path: () => '/etc/shadow' },
  { label: '/proc/self/environ', path: () => '/proc/self/environ' },
  { label: '/proc/1/environ', path: () => '/proc/1/environ' },
  { label: "/proc/self (the server's own process)", path: () => '/proc/self' },
  { label: "/proc/<server pid> (the server's own process)", path: () => `/proc/${process.pid}` },
  { label: '/proc/mounts (a link into the server process)', path: () => '/proc/mounts' },
  { label: 'workspace symlink to /etc/shadow', path: () => join(ctx.ws, 'shadow-link') },
  { label: 'workspace symlink to a dir outside the roots', path: () => join(ctx.ws, 'outside-link') },
  { label: 'file through a symlinked outside dir', path: () => join(ctx.ws, 'outside-link', 'secret.txt') },
  { label: 'dir outside the roots', path: () => outside },
  { label: 'relative escape to the outside dir', path: () => join('..', outside.split('/').at(-1)!) },
  { label: 'home dir outside the roots', path: () => homedir() },
  { label: '~/.ssh', path: () => join(homedir(), '.ssh') },
  { label: 'state dir', path: () => ctx.stateDir },
  { label: 'state dir file', path: () => join(ctx.stateDir, 'api-key') },
];

test('path attack table: every path-taking adapter refuses with path_denied', async (t) => {
  for (const a of ATTACKS) {
    for (const tl of PATH_TOOLS) {
      await t.test(`${tl.name}: ${a.label}`, async () => {
        const e = await callError(tools, tl.name, { path: a.path(), ...tl.extra });
        assert.equal(e.errorClass, 'path_denied', `${tl.name} ${a.label}: ${e.errorClass} ${e.message}`);
        assert.ok(e.rule?.startsWith('path.'), `rule ${e.rule}`);
      });
    }
  }
});

test('walks never enter a symlink that leads out of the roots, even with follow_symlinks', async () => {
  const r = await call(tools, 'list_files', { path: ctx.ws, recursive: true, follow_symlinks: true, include_hidden: true });
  const paths = r.data.files.map((f: { path: string }) => f.path);
  assert.ok(paths.includes('sub/a.txt'));
  assert.ok(!paths.some((p: string) => p.startsWith('outside-link/')), paths.join(','));
  const s = await call(tools, 'file_search', { path: ctx.ws, query: 'outside secret' });
  assert.equal(s.data.matches.length, 0);
});

test('legit table: workspace files, relative paths, /etc/os-release, /var/log, /proc/meminfo', async () => {
  const legit: Array<[string, Record<string, unknown>]> = [
    ['read_file', { path: join(ctx.ws, 'sub', 'a.txt') }],
    ['read_file', { path: 'sub/a.txt' }],
    ['read_file', { path: '/etc/os-release' }],
    ['read_file', { path: '/proc/meminfo' }],
    ['log_tail', { path: 'sub/a.txt' }],
    ['list_files', { path: '.' }],
    ['list_files', { path: '/var/log' }],
    ['list_files', { path: '/etc', limit: 5 }],
    ['disk_usage', { path: ctx.ws }],
    ['file_search', { path: 'sub', query: 'hello' }],
    ['git_status', { path: ctx.ws }],
  ];
  for (const [name, args] of legit) {
    const r = await call(tools, name, args);
    assert.ok(r.data, `${name} ${JSON.stringify(args)}`);
  }
  const rf = await call(tools, 'read_file', { path: 'sub/a.txt' });
  assert.equal(rf.data.content, 'hello workspace\n');
  const os = await call(tools, 'read_file', { path: '/etc/os-release' });
  assert.match(os.data.content, /NAME=/);
});

test('a missing path is not_found, a NUL byte is invalid_params', async () => {
  assert.equal((await callError(tools, 'read_file', { path: join(ctx.ws, 'nope.txt') })).errorClass, 'not_found');
  assert.equal((await callError(tools, 'read_file', { path: 'a\0b' })).errorClass, 'invalid_params');
});

test.after(() => {
  ctx.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

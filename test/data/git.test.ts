// git_status / git_log / git_diff on real repositories, including a hostile repository config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitTools } from '../../src/control/tools/adapters-git.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = gitTools(ctx.deps);
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: ctx.ws };
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const write = (p: string, s: string) => (mkdirSync(join(p, '..'), { recursive: true }), writeFileSync(p, s));

function makeRepo(name: string): string {
  const dir = join(ctx.ws, name);
  mkdirSync(dir);
  git(dir, 'init', '-q');
  return dir;
}

test('status: rename, modified, untracked, ahead/behind, branch and upstream', async () => {
  const origin = makeRepo('origin');
  write(join(origin, 'a.txt'), 'a\n');
  write(join(origin, 'old name.txt'), 'rename me\n');
  git(origin, 'add', '.');
  git(origin, 'commit', '-qm', 'first');
  git(ctx.ws, 'clone', '-q', origin, 'clone');
  const repo = join(ctx.ws, 'clone');
  git(repo, 'mv', 'old name.txt', 'new name.txt');
  write(join(repo, 'a.txt'), 'changed\n');
  write(join(repo, 'untracked dir/u.txt'), 'u\n');
  git(repo, 'commit', '-qm', 'local', '--', 'a.txt');
  write(join(origin, 'b.txt'), 'b\n');
  git(origin, 'add', '.');
  git(origin, 'commit', '-qm', 'remote');
  git(repo, 'fetch', '-q');
  const s = (await call(tools, 'git_status', { path: repo })).data;
  assert.equal(s.branch, 'main');
  assert.equal(s.upstream, 'origin/main');
  assert.equal(s.ahead, 1);
  assert.equal(s.behind, 1);
  assert.equal(s.detached, false);
  const ren = s.entries.find((e: { kind: string }) => e.kind === 'renamed');
  assert.deepEqual(ren, { path: 'new name.txt', orig_path: 'old name.txt', index: 'R', worktree: '.', kind: 'renamed' });
  assert.ok(s.entries.some((e: { kind: string; path: string }) => e.kind === 'untracked' && e.path === 'untracked dir/u.txt'));
});

test('status: merge conflict entries and detached HEAD', async () => {
  const repo = makeRepo('conflict');
  write(join(repo, 'f.txt'), 'base\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'base');
  git(repo, 'checkout', '-qb', 'other');
  write(join(repo, 'f.txt'), 'other\n');
  git(repo, 'commit', '-qam', 'other');
  git(repo, 'checkout', '-q', 'main');
  write(join(repo, 'f.txt'), 'mine\n');
  git(repo, 'commit', '-qam', 'mine');
  assert.throws(() => git(repo, 'merge', '-q', 'other'));
  const s = (await call(tools, 'git_status', { path: repo })).data;
  assert.deepEqual(s.entries, [{ path: 'f.txt', index: 'U', worktree: 'U', kind: 'unmerged' }]);
  git(repo, 'merge', '--abort');
  git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
  const d = (await call(tools, 'git_status', { path: repo })).data;
  assert.equal(d.detached, true);
  assert.equal(d.branch, null);
  assert.match(d.head, /^[0-9a-f]{40}$/);
});

test('log: fields, limit, ref, empty repository, bad ref', async () => {
  const repo = makeRepo('log');
  const empty = await call(tools, 'git_log', { path: repo });
  assert.deepEqual(empty.data.commits, []);
  for (let i = 1; i <= 5; i++) {
    write(join(repo, 'n.txt'), String(i));
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', `commit ${i}\n\nbody with | and \t tab`);
  }
  const r = await call(tools, 'git_log', { path: repo, limit: 3 });
  assert.deepEqual(r.data.commits.map((c: { subject: string }) => c.subject), ['commit 5', 'commit 4', 'commit 3']);
  assert.equal(r.data.truncated, true);
  const c = r.data.commits[0];
  assert.equal(c.author, 'Ada');
  assert.equal(c.email, 'ada@example.com');
  assert.match(c.hash, /^[0-9a-f]{40}$/);
  assert.ok(!Number.isNaN(Date.parse(c.date)));
  const old = await call(tools, 'git_log', { path: repo, ref: 'HEAD~3' });
  assert.deepEqual(old.data.commits.map((x: { subject: string }) => x.subject), ['commit 2', 'commit 1']);
  assert.equal((await callError(tools, 'git_log', { path: repo, ref: '--output=/tmp/x' })).errorClass, 'invalid_params');
  assert.equal((await callError(tools, 'git_log', { path: repo, ref: 'no-such-branch' })).errorClass, 'invalid_params');
  assert.equal((await callError(tools, 'git_status', { path: join(ctx.ws, 'origin', '..', '..') })).errorClass, 'path_denied');
});

test('diff: working tree, staged, ref, byte budget', async () => {
  const repo = makeRepo('diff');
  write(join(repo, 'a.txt'), 'one\n');
  write(join(repo, 'b.txt'), 'two\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  write(join(repo, 'a.txt'), 'ONE\n');
  write(join(repo, 'b.txt'), 'TWO\n' + 'x'.repeat(5000) + '\n');
  git(repo, 'add', 'b.txt');
  const wt = (await call(tools, 'git_diff', { path: repo })).data;
  assert.match(wt.diff, /-one\n\+ONE/);
  assert.equal(wt.files_changed, 1);
  const st = (await call(tools, 'git_diff', { path: repo, staged: true, max_bytes: 1024 })).data;
  assert.equal(st.truncated, true);
  assert.ok(st.diff.length <= 1024);
  assert.match(st.diff, /b\.txt/);
  const ref = (await call(tools, 'git_diff', { path: repo, ref: 'HEAD' })).data;
  assert.equal(ref.files_changed, 2);
});

test('a hostile repository config runs nothing (fsmonitor, pager, external diff, textconv, hooks)', async () => {
  const repo = makeRepo('hostile');
  const marker = join(ctx.ws, 'pwned');
  const evil = join(ctx.ws, 'evil.sh');
  write(evil, `#!/bin/sh\ntouch ${marker}\n`);
  chmodSync(evil, 0o755);
  write(join(repo, 'a.txt'), 'a\n');
  write(join(repo, '.gitattributes'), '*.txt diff=evil\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  for (const [k, v] of [['core.fsmonitor', evil], ['core.pager', evil], ['diff.external', evil], ['diff.evil.textconv', evil], ['core.hooksPath', ctx.ws], ['pager.diff', evil], ['pager.log', evil]]) {
    git(repo, 'config', k, v);
  }
  write(join(repo, 'a.txt'), 'changed\n');
  // Refused before git runs (the first unsafe key is named); nothing the config names runs.
  for (const tool of ['git_status', 'git_log', 'git_diff']) {
    const e = await callError(tools, tool, { path: repo });
    assert.equal(e.rule, 'git.unsafe_config', e.message);
    assert.match(e.message, /core\.fsmonitor/);
  }
  assert.equal(existsSync(marker), false, 'a repository-configured program ran');
});

test('a directory outside any repository is not_found', async () => {
  mkdirSync(join(ctx.ws, 'plain'));
  assert.equal((await callError(tools, 'git_status', { path: join(ctx.ws, 'plain') })).errorClass, 'not_found');
});

test.after(() => ctx.cleanup());

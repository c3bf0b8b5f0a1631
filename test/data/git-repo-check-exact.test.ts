// The repository check reads metadata exactly as git does or refuses (rt-a F3, F13, F2): names and
// index paths that are not valid UTF-8, pointers whose target is absent or reached through `..`
// below a missing directory, a `.git` that is neither a directory nor a gitdir file. Each attack has
// its legitimate twin that keeps passing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkRepository } from '../../src/data/git/repo-check/check-repository.js';
import { git, plainRepo } from '../helpers/git-repos.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-exact-')));
const ws = join(base, 'ws');
mkdirSync(ws);
const scope = { roots: [ws], homeDir: join(base, 'home'), stateDir: join(base, 'state') };
const refused = (re: RegExp) => (e: Error & { rule?: string }) => e.rule === 'git.unsafe_config' && re.test(e.message);
const bytes = (...parts: (string | number)[]) => Buffer.concat(parts.map((p) => (typeof p === 'number' ? Buffer.from([p]) : Buffer.from(p))));

describe('repository check: exact reading or refusal', () => {
  after(() => rmSync(base, { recursive: true, force: true }));

  test('a submodule git dir whose name is not valid UTF-8 is refused, not skipped', async () => {
    const r = plainRepo(join(ws, 'modname'), '');
    mkdirSync(bytes(join(r, '.git', 'modules', 'x'), 0xff), { recursive: true });
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/modules.*not valid UTF-8/));
  });

  test('a gitlink whose index path is not valid UTF-8 is refused; a UTF-8 one is checked', async () => {
    const r = plainRepo(join(ws, 'idxname'), '');
    const sha = git(r, 'rev-parse', 'HEAD').trim();
    execFileSync('git', ['update-index', '--index-info'], { cwd: r, input: bytes(`160000 ${sha}\tlib-`, 0xff, '\n') });
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/submodule path in index.*not valid UTF-8/));
    const ok = plainRepo(join(ws, 'idxname-ok'), '');
    execFileSync('git', ['update-index', '--index-info'], { cwd: ok, input: `160000 ${sha}\tlib-é\n` });
    assert.equal((await checkRepository({ cwd: ok }, scope)).repository, ok);
  });

  test('a .git file whose gitdir is absent, or reached by `..` below a missing directory, is refused', async () => {
    const d = join(ws, 'gitfile-absent');
    mkdirSync(d);
    writeFileSync(join(d, '.git'), 'gitdir: nowhere/.git\n');
    await assert.rejects(checkRepository({ cwd: d }, scope), refused(/does not exist/));
    writeFileSync(join(d, '.git'), 'gitdir: missing/../../gitfile-real/.git\n');
    await assert.rejects(checkRepository({ cwd: d }, scope), refused(/"\.\."/));
    plainRepo(join(ws, 'gitfile-real'), '');
    writeFileSync(join(d, '.git'), 'gitdir: ../gitfile-real/.git\n');
    assert.equal((await checkRepository({ cwd: d }, scope)).repository, d);
  });

  test('commondir and alternates must name existing directories', async () => {
    const r = plainRepo(join(ws, 'ptrs'), '');
    writeFileSync(join(r, '.git', 'objects', 'info', 'alternates'), '../../../gone/objects\n');
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/alternates.*does not exist/));
    const other = plainRepo(join(ws, 'ptrs-other'), '');
    writeFileSync(join(r, '.git', 'objects', 'info', 'alternates'), `${join(other, '.git', 'objects')}\n`);
    assert.equal((await checkRepository({ cwd: r }, scope)).gitDirs, 1);
    writeFileSync(join(r, '.git', 'commondir'), 'gone\n');
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/commondir.*does not exist/));
  });

  test('an include with `..` below a missing directory is refused; an absent plain one passes', async () => {
    const r = plainRepo(join(ws, 'inc'), '');
    git(r, 'config', 'include.path', 'missing/../x.cfg');
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/include\.path.*"\.\."/));
    git(r, 'config', 'include.path', 'missing/x.cfg');
    assert.equal((await checkRepository({ cwd: r }, scope)).repository, r);
  });

  test('core.worktree through a symlink and `..` is resolved as the OS does', async () => {
    const r = plainRepo(join(ws, 'wtlink'), '');
    mkdirSync(join(base, 'outside', 'x'), { recursive: true });
    symlinkSync(join(base, 'outside', 'x'), join(r, '.git', 'lnk'));
    git(r, 'config', 'core.worktree', 'lnk/..');
    await assert.rejects(checkRepository({ cwd: r }, scope), refused(/core\.worktree.*outside the roots/));
  });

  test('a .git that is neither a directory nor a gitdir file is refused', async () => {
    const d = join(ws, 'dotgit-fifo');
    mkdirSync(d);
    execFileSync('mkfifo', [join(d, '.git')]);
    await assert.rejects(checkRepository({ cwd: d }, scope), refused(/neither a directory nor/));
    const l = join(ws, 'dotgit-dangling');
    mkdirSync(l);
    symlinkSync(join(base, 'nowhere'), join(l, '.git'));
    await assert.rejects(checkRepository({ cwd: l }, scope), refused(/neither a directory nor/));
  });

  test('a directory that loosely looks like a bare repository (HEAD a dangling symlink) is checked', async () => {
    const d = join(ws, 'loose-bare');
    mkdirSync(join(d, 'objects'), { recursive: true });
    writeFileSync(join(d, 'refs'), '');
    symlinkSync('refs/heads/unborn', join(d, 'HEAD'));
    writeFileSync(join(d, 'config'), '[core]\n\tpager = evil\n');
    await assert.rejects(checkRepository({ cwd: d }, scope), refused(/core\.pager/));
  });
});

// Legitimate repositories keep working under the repository config check: plain, remotes and
// branches, submodules (real `git submodule add`), LFS-style attributes without drivers, a harmless
// include inside the repository, a linked worktree, a CI checkout's http extraheader, sha256 and
// index v4 — through the git adapters and run_command git.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';
import { git, plainRepo } from '../helpers/git-repos.js';

interface LegitCase {
  name: string;
  /** Where the tools are pointed (relative to the case directory). */
  at?: string;
  /** No commit yet (git log exits 128 on an unborn branch). */
  empty?: boolean;
  make(dir: string, ws: string): void;
}

const LEGIT: LegitCase[] = [
  { name: 'empty-init', empty: true, make: (d) => (mkdirSync(d), git(d, 'init', '-q')) },
  { name: 'plain', make: (d) => plainRepo(d, '*.txt text\n') },
  {
    name: 'remotes-branches',
    make: (d) => {
      plainRepo(d, '');
      git(d, 'remote', 'add', 'origin', 'https://example.com/a/b.git');
      git(d, 'remote', 'add', 'fork', 'git@example.com:me/b.git');
      git(d, 'branch', 'feature');
      git(d, 'config', 'branch.main.remote', 'origin');
      git(d, 'config', 'branch.main.merge', 'refs/heads/main');
      git(d, 'config', 'user.name', 'Someone');
      git(d, 'config', 'pull.rebase', 'true');
    },
  },
  {
    name: 'submodule',
    make: (d, ws) => {
      const lib = plainRepo(join(ws, 'submodule-lib-src'), '');
      git(lib, 'commit', '-qam', 'two');
      plainRepo(d, '');
      git(d, 'submodule', 'add', '-q', lib, 'lib');
      git(d, 'commit', '-qm', 'add lib');
      writeFileSync(join(d, 'lib', 'a.txt'), 'dirty submodule\n');
    },
  },
  { name: 'lfs-attributes', make: (d) => plainRepo(d, '*.bin filter=lfs diff=lfs merge=lfs -text\n* filter=lfs diff=lfs merge=lfs\n') },
  {
    name: 'include-inside',
    make: (d) => {
      plainRepo(d, '');
      writeFileSync(join(d, '.git', 'extra.cfg'), '[user]\n\temail = x@example.com\n[color]\n\tui = auto\n');
      git(d, 'config', 'include.path', 'extra.cfg');
      git(d, 'config', 'includeIf.gitdir:/nowhere/.path', 'extra.cfg');
    },
  },
  {
    name: 'linked-worktree',
    at: '../linked-worktree-wt',
    make: (d, ws) => {
      plainRepo(d, '');
      git(d, 'worktree', 'add', '-q', join(ws, 'linked-worktree-wt'));
      writeFileSync(join(ws, 'linked-worktree-wt', 'a.txt'), 'changed in the linked worktree\n');
    },
  },
  {
    name: 'ci-extraheader',
    make: (d) => {
      plainRepo(d, '');
      git(d, 'remote', 'add', 'origin', 'https://github.com/a/b');
      git(d, 'config', '--local', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic eHgtYWNjZXNzLXRva2VuOmFiYw==');
    },
  },
  { name: 'sha256', make: (d) => (mkdirSync(d), git(d, 'init', '-q', '--object-format=sha256'), writeFileSync(join(d, 'f'), 'x\n'), git(d, 'add', '.'), git(d, 'commit', '-qm', 'one')) },
  {
    name: 'index-v4-submodule',
    make: (d, ws) => {
      const lib = plainRepo(join(ws, 'v4-lib-src'), '');
      git(lib, 'commit', '-qam', 'two');
      plainRepo(d, '');
      git(d, 'submodule', 'add', '-q', lib, 'deps/lib');
      git(d, 'update-index', '--index-version', '4');
      git(d, 'commit', '-qm', 'add lib');
    },
  },
  {
    // Values as `git config` writes them: a whole quoted value (leading blanks), escapes in plain text.
    name: 'git-written-quoting',
    make: (d) => {
      plainRepo(d, '*.py diff=py\n');
      git(d, 'config', 'user.name', '  Padded Name ');
      git(d, 'config', 'diff.py.xfuncname', '^[ \t]*(def|class)\\s.*$');
      git(d, 'config', 'branch.main.description', 'has "quotes" # and a hash');
    },
  },
  {
    // An include that does not exist (git skips it) and one reached through a symlink that stays inside.
    name: 'include-absent-and-symlinked',
    make: (d, ws) => {
      plainRepo(d, '');
      mkdirSync(join(ws, 'shared-cfg', 'sub'), { recursive: true });
      writeFileSync(join(ws, 'shared-cfg', 'team.cfg'), '[user]\n\temail = team@example.com\n');
      symlinkSync(join(ws, 'shared-cfg', 'sub'), join(d, '.git', 'lnk'));
      git(d, 'config', '--add', 'include.path', 'not-there.cfg');
      git(d, 'config', '--add', 'include.path', 'lnk/../team.cfg');
    },
  },
  {
    // An independent repository inside another one: every repository on the way up is checked.
    name: 'nested-repo',
    at: 'inner',
    make: (d) => {
      plainRepo(d, '');
      plainRepo(join(d, 'inner'), '');
    },
  },
];

describe('legitimate repositories pass the git config check', () => {
  const t = testApp('read-only');
  before(() => {
    for (const c of LEGIT) c.make(join(t.ws, c.name), t.ws);
  });
  after(() => t.close());

  for (const c of LEGIT) {
    test(`${c.name}: git adapters and run_command git work`, async () => {
      const path = join(t.ws, c.name, c.at ?? '.');
      for (const tool of ['git_status', 'git_diff', 'git_log']) {
        const r = await t.call(tool, { path });
        assert.equal(r.isError, false, `${c.name} ${tool}: ${r.text}`);
      }
      const log = c.empty ? ['git', 'rev-parse', '--git-dir'] : ['git', 'log', '--oneline', '-n', '5'];
      for (const cmd of [['git', 'status'], ['git', 'diff'], log]) {
        const r = await t.call('run_command', { command: cmd, cwd: path });
        assert.equal(r.s.exit_code, 0, `${c.name} ${cmd.join(' ')}: ${r.text}`);
      }
    });
  }

  test('the submodule is seen (dirty) by git_status', async () => {
    const r = await t.call('git_status', { path: join(t.ws, 'submodule') });
    assert.ok(r.s.entries.some((e: { path: string }) => e.path === 'lib'), JSON.stringify(r.s.entries));
  });
});

describe('pointers into secrets or the state directory are refused even inside the roots', () => {
  const t = testApp('read-only');
  after(() => t.close());

  test('core.worktree at a home with .ssh, include.path into the state dir', async () => {
    const { checkRepository } = await import('../../src/data/git/repo-check/check-repository.js');
    const home = join(t.base, 'home');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    writeFileSync(join(t.state, 'x.cfg'), '[user]\n\tname = x\n');
    const scope = { roots: [t.base], homeDir: home, stateDir: t.state };
    const wt = plainRepo(join(t.ws, 'wt-home'), '');
    git(wt, 'config', 'core.worktree', home);
    await assert.rejects(checkRepository({ cwd: wt }, scope), (e: Error & { rule?: string }) => e.rule === 'git.unsafe_config' && /core\.worktree.*credentials/.test(e.message));
    const inc = plainRepo(join(t.ws, 'inc-state'), '');
    git(inc, 'config', 'include.path', join(t.state, 'x.cfg'));
    await assert.rejects(checkRepository({ cwd: inc }, scope), (e: Error & { rule?: string }) => e.rule === 'git.unsafe_config' && /sensitive path/.test(e.message));
    // The same repositories without the pointers pass.
    git(wt, 'config', '--unset', 'core.worktree');
    git(inc, 'config', '--unset', 'include.path');
    assert.equal((await checkRepository({ cwd: wt }, scope)).repository, wt);
    assert.equal((await checkRepository({ cwd: inc }, scope)).gitDirs, 1);
  });
});

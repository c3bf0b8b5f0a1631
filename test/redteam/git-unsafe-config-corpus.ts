// The malicious-repository corpus: one repository per setting or pointer that could make git run a
// program or reach outside the roots. Each plants a command that would create a marker file, or a
// pointer at a canary outside the roots; the check must refuse each with git.unsafe_config.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { appendConfig, git, plainRepo, signedHead } from '../helpers/git-repos.js';

export interface CorpusEnv {
  /** Where a repository is created (inside the roots). */
  repo: string;
  /** Outside every root. */
  outside: string;
  /** A shell command that creates the case's marker file outside the roots. */
  touch: string;
  /** A string that must never appear in any output. */
  canary: string;
}

export interface CorpusCase {
  name: string;
  /** Text the refusal must contain (the key or pointer it names). */
  names: string;
  plant(e: CorpusEnv): void;
}

const cfg = (section: string, body: string) => (e: CorpusEnv) => {
  plainRepo(e.repo);
  appendConfig(e.repo, `[${section}]\n${body.replace(/TOUCH/g, e.touch)}\n`);
};

// A git repository outside the roots whose only commit message is the canary.
function outsideRepo(e: CorpusEnv): string {
  const dir = join(e.outside, `other-repo-${basename(e.repo)}`);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'secret.txt'), `${e.canary}\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', e.canary);
  return dir;
}

// An executable outside the roots that creates the marker (for settings git runs without a shell).
function script(e: CorpusEnv): string {
  const p = join(e.outside, `pwn-${basename(e.repo)}.sh`);
  writeFileSync(p, `#!/bin/sh\n${e.touch}\n`);
  chmodSync(p, 0o755);
  return p;
}

export const CORPUS: CorpusCase[] = [
  { name: 'filter-clean', names: 'filter.x.clean', plant: cfg('filter "x"', `\tclean = "sh -c 'TOUCH; cat'"`) },
  { name: 'filter-smudge', names: 'filter.x.smudge', plant: cfg('filter "x"', `\tsmudge = "sh -c 'TOUCH; cat'"`) },
  { name: 'filter-process', names: 'filter.x.process', plant: cfg('filter "x"', `\tprocess = "sh -c 'TOUCH'"`) },
  { name: 'diff-textconv', names: 'diff.x.textconv', plant: cfg('diff "x"', `\ttextconv = "sh -c 'TOUCH; cat'"`) },
  { name: 'diff-command', names: 'diff.x.command', plant: cfg('diff "x"', `\tcommand = "sh -c 'TOUCH'"`) },
  { name: 'merge-driver', names: 'merge.x.driver', plant: cfg('merge "x"', `\tdriver = "sh -c 'TOUCH'"`) },
  { name: 'core-fsmonitor', names: 'core.fsmonitor', plant: cfg('core', `\tfsmonitor = "sh -c 'TOUCH'"`) },
  { name: 'core-hookspath', names: 'core.hookspath', plant: cfg('core', '\thooksPath = /tmp') },
  { name: 'core-pager', names: 'core.pager', plant: cfg('core', `\tpager = "sh -c 'TOUCH; cat'"`) },
  { name: 'core-editor', names: 'core.editor', plant: cfg('core', `\teditor = "sh -c 'TOUCH'"`) },
  { name: 'core-sshcommand', names: 'core.sshcommand', plant: cfg('core', `\tsshCommand = "sh -c 'TOUCH'"`) },
  { name: 'gpg-program', names: 'gpg.program', plant: (e) => (cfg('gpg', `\tprogram = ${script(e)}`)(e), signedHead(e.repo, 'PGP')) },
  { name: 'gpg-ssh-program', names: 'gpg.ssh.program', plant: (e) => (cfg('gpg "ssh"', `\tprogram = ${script(e)}`)(e), signedHead(e.repo, 'SSH')) },
  { name: 'credential-helper', names: 'credential.helper', plant: cfg('credential', `\thelper = "!sh -c 'TOUCH'"`) },
  {
    name: 'core-worktree-outside',
    names: 'core.worktree',
    plant: (e) => {
      const home = join(e.outside, 'home');
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, `${e.canary}.txt`), `${e.canary}\n`);
      cfg('core', `\tworktree = ${home}`)(e);
    },
  },
  {
    name: 'include-outside',
    names: 'include.path',
    plant: (e) => {
      writeFileSync(join(e.outside, 'evil.cfg'), `[filter "x"]\n\tclean = "sh -c '${e.touch}; cat'"\n`);
      cfg('include', `\tpath = ${join(e.outside, 'evil.cfg')}`)(e);
    },
  },
  {
    name: 'includeif-outside',
    names: 'includeIf',
    plant: (e) => {
      writeFileSync(join(e.outside, 'evil-if.cfg'), `[core]\n\tpager = "sh -c '${e.touch}'"\n`);
      cfg('includeIf "gitdir:/nowhere/"', `\tpath = ${join(e.outside, 'evil-if.cfg')}`)(e);
    },
  },
  {
    name: 'include-inside-unsafe',
    names: 'filter.x.clean',
    plant: (e) => {
      cfg('include', '\tpath = ../inc.cfg')(e);
      writeFileSync(join(e.repo, 'inc.cfg'), `[filter "x"]\n\tclean = "sh -c '${e.touch}; cat'"\n`);
    },
  },
  {
    name: 'alternates-outside',
    names: 'alternates',
    plant: (e) => {
      const other = outsideRepo(e);
      plainRepo(e.repo);
      writeFileSync(join(e.repo, '.git', 'objects', 'info', 'alternates'), `${join(other, '.git', 'objects')}\n`);
      git(e.repo, 'update-ref', 'refs/heads/stolen', git(other, 'rev-parse', 'HEAD').trim());
    },
  },
  {
    name: 'gitfile-outside',
    names: 'git directory',
    plant: (e) => {
      const other = outsideRepo(e);
      mkdirSync(e.repo, { recursive: true });
      writeFileSync(join(e.repo, '.git'), `gitdir: ${join(other, '.git')}\n`);
    },
  },
  {
    name: 'subsection-equals',
    names: 'subsection name containing "="',
    plant: (e) => {
      plainRepo(e.repo, '* filter=a\n');
      appendConfig(e.repo, `[filter "a.clean=sh -c '${e.touch}' #"]\n\tsmudge = cat\n`);
    },
  },
  {
    name: 'bare-repo',
    names: 'core.fsmonitor',
    plant: (e) => {
      mkdirSync(e.repo, { recursive: true });
      git(e.repo, 'init', '-q', '--bare');
      appendFileSync(join(e.repo, 'config'), `[core]\n\tfsmonitor = ${script(e)}\n`);
    },
  },
  {
    name: 'config-fifo',
    names: 'not a regular file',
    plant: (e) => {
      plainRepo(e.repo);
      execFileSync('mkfifo', [join(e.repo, '.git', 'config.worktree')]);
    },
  },
  { name: 'config-huge', names: 'bytes Workbench checks', plant: (e) => (plainRepo(e.repo), appendConfig(e.repo, `# ${'x'.repeat(2 << 20)}\n`)) },
  { name: 'control-char', names: 'control character', plant: cfg('core', '\tbare = false\x01') },
  {
    name: 'submodule-unsafe',
    names: 'filter.x.clean',
    plant: (e) => {
      const lib = plainRepo(join(e.outside, 'lib-src'));
      git(lib, 'commit', '-qam', 'two');
      plainRepo(e.repo);
      git(e.repo, 'submodule', 'add', '-q', lib, 'lib');
      git(e.repo, 'commit', '-qm', 'sub');
      git(join(e.repo, 'lib'), 'config', 'filter.x.clean', `sh -c '${e.touch}; cat'`);
      writeFileSync(join(e.repo, 'lib', 'a.txt'), 'dirty\n');
    },
  },
  // rt-a F1/F1b: git drops the blank after an empty "" and includes the absolute path; refused as unusual quoting.
  { name: 'include-empty-quotes', names: 'unusual quoting', plant: (e) => (cfg('include', `\tpath = "" ${evilCfg(e, e.outside)}`)(e)) },
  { name: 'include-empty-quotes-inside', names: 'unusual quoting', plant: (e) => (cfg('include', `\tpath = "" ${join(e.repo, 'evil.inc')}`)(e), evilCfg(e, e.repo, 'evil.inc')) },
  // rt-a F2: objects/ and refs/ as executable files (git's access(X_OK) accepts them); F2b: HEAD a symlink to a missing ref.
  {
    name: 'discovery-objects-refs-files',
    names: 'filter.x.clean',
    plant: (e) => {
      cfg('filter "x"', `\tclean = "sh -c 'TOUCH; cat'"`)(e);
      for (const d of ['objects', 'refs']) {
        rmSync(join(e.repo, '.git', d), { recursive: true });
        writeFileSync(join(e.repo, '.git', d), '');
        chmodSync(join(e.repo, '.git', d), 0o755);
      }
    },
  },
  {
    name: 'discovery-head-symlink',
    names: 'filter.x.clean',
    plant: (e) => {
      cfg('filter "x"', `\tclean = "sh -c 'TOUCH; cat'"`)(e);
      rmSync(join(e.repo, '.git', 'HEAD'));
      symlinkSync('refs/heads/unborn', join(e.repo, '.git', 'HEAD'));
    },
  },
  // rt-a F3: `lnk/../evil.inc` with .git/lnk -> outside/deep/x is outside/deep/evil.inc for the OS (and git).
  {
    name: 'include-symlink-dotdot',
    names: 'include.path',
    plant: (e) => {
      const deep = join(e.outside, `deep-${basename(e.repo)}`);
      mkdirSync(join(deep, 'x'), { recursive: true });
      evilCfg(e, deep, 'evil.inc');
      cfg('include', '\tpath = lnk/../evil.inc')(e);
      symlinkSync(join(deep, 'x'), join(e.repo, '.git', 'lnk'));
    },
  },
  // rt-a F3b: `.git` file `gitdir: lnk/../g` with lnk -> outside/deep/x: the whole git dir is outside/deep/g.
  {
    name: 'gitfile-symlink-dotdot',
    names: 'git directory',
    plant: (e) => {
      const deep = join(e.outside, `deep-${basename(e.repo)}`);
      mkdirSync(join(deep, 'x'), { recursive: true });
      cfg('filter "x"', `\tclean = "sh -c 'TOUCH; cat'"`)(e);
      renameSync(join(e.repo, '.git'), join(deep, 'g'));
      appendFileSync(join(deep, 'g', 'config'), `[core]\n\tworktree = ${e.repo}\n`);
      symlinkSync(join(deep, 'x'), join(e.repo, 'lnk'));
      writeFileSync(join(e.repo, '.git'), 'gitdir: lnk/../g\n');
    },
  },
  // rt-a F13: an include path with byte 0xFF; a lossy decoding names a file that does not exist.
  {
    name: 'include-non-utf8',
    names: 'not valid UTF-8',
    plant: (e) => {
      plainRepo(e.repo);
      writeFileSync(Buffer.concat([Buffer.from(join(e.repo, 'evil')), Buffer.from([0xff]), Buffer.from('.inc')]), `[filter "x"]\n\tclean = "sh -c '${e.touch}; cat'"\n`);
      appendFileSync(join(e.repo, '.git', 'config'), Buffer.concat([Buffer.from('[include]\n\tpath = ../evil'), Buffer.from([0xff]), Buffer.from('.inc\n')]));
    },
  },
  { name: 'gitlink-unsafe', names: 'filter.x.clean', plant: (e) => gitlinkRepo(e, false) },
  { name: 'gitlink-unsafe-index-v4', names: 'filter.x.clean', plant: (e) => gitlinkRepo(e, true) },
];

// A config file in `dir` whose filter creates the marker; returns its path.
function evilCfg(e: CorpusEnv, dir: string, name = `evil-${basename(e.repo)}.cfg`): string {
  const p = join(dir, name);
  writeFileSync(p, `[filter "x"]\n\tclean = "sh -c '${e.touch}; cat'"\n`);
  return p;
}

// A nested repository added as a bare gitlink (no .gitmodules): git status still enters it.
function gitlinkRepo(e: CorpusEnv, v4: boolean): void {
  plainRepo(e.repo);
  const inner = plainRepo(join(e.repo, 'inner'));
  git(inner, 'commit', '-qam', 'two');
  git(e.repo, 'add', 'inner');
  git(e.repo, 'commit', '-qm', 'gitlink without .gitmodules');
  if (v4) git(e.repo, 'update-index', '--index-version', '4');
  git(inner, 'config', 'filter.x.clean', `sh -c '${e.touch}; cat'`);
  writeFileSync(join(inner, 'a.txt'), 'dirty\n');
}

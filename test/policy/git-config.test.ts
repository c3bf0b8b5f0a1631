// The pure git config judge: a table of config texts that must be refused with git.unsafe_config
// (naming the key or line) and a table of ordinary configs that must pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeGitConfig, GIT_UNSAFE_CONFIG } from '../../src/policy/git-config/judge-git-config.js';
import { parseGitConfig } from '../../src/policy/git-config/parse-git-config.js';
import { gitInvocation, gitStageTarget } from '../../src/policy/git-config/git-stage-target.js';
import { includeTarget, parseAlternates, parseGitFile } from '../../src/policy/git-config/git-pointers.js';
import { PolicyDenial } from '../../src/policy/denial.js';

const F = '/r/.git/config';

/** [config text, text the refusal message must contain] */
const UNSAFE: Array<[string, string]> = [
  ['[filter "x"]\n\tclean = sh -c "touch /tmp/p"\n', 'filter.x.clean'],
  ['[filter "x"]\n\tsmudge = evil\n', 'filter.x.smudge'],
  ['[filter "x"]\n\tprocess = evil\n', 'filter.x.process'],
  ['[filter "x"]\n\trequired = true\n', 'filter.x.required'],
  ['[diff "x"]\n\ttextconv = evil\n', 'diff.x.textconv'],
  ['[diff "x"]\n\tcommand = evil\n', 'diff.x.command'],
  ['[diff]\n\texternal = evil\n', 'diff.external'],
  ['[merge "x"]\n\tdriver = evil %A\n', 'merge.x.driver'],
  ['[core]\n\tfsmonitor = evil\n', 'core.fsmonitor'],
  ['[core]\n\tfsmonitor = true\n', 'core.fsmonitor'],
  ['[core]\n\tfsmonitor\n', 'core.fsmonitor'],
  ['[core]\n\thooksPath = /tmp/hooks\n', 'core.hookspath'],
  ['[core]\n\tpager = evil\n', 'core.pager'],
  ['[core]\n\teditor = evil\n', 'core.editor'],
  ['[core]\n\tsshCommand = evil\n', 'core.sshcommand'],
  ['[core]\n\taskPass = evil\n', 'core.askpass'],
  ['[core]\n\tgitProxy = evil\n', 'core.gitproxy'],
  ['[core]\n\texcludesFile = /home/u/.ssh/id_rsa\n', 'core.excludesfile'],
  ['[core]\n\tattributesFile = /etc/x\n', 'core.attributesfile'],
  ['[core]\n\talternateRefsCommand = evil\n', 'core.alternaterefscommand'],
  ['[gpg]\n\tprogram = evil\n', 'gpg.program'],
  ['[gpg "ssh"]\n\tprogram = evil\n', 'gpg.ssh.program'],
  ['[credential]\n\thelper = evil\n', 'credential.helper'],
  ['[credential "https://x"]\n\thelper = evil\n', 'credential.https://x.helper'],
  ['[alias]\n\tst = !evil\n', 'alias.st'],
  ['[pager]\n\tlog = evil\n', 'pager.log'],
  ['[sequence]\n\teditor = evil\n', 'sequence.editor'],
  ['[protocol "ext"]\n\tallow = always\n', 'protocol.ext.allow'],
  ['[remote "o"]\n\tuploadpack = evil\n', 'remote.o.uploadpack'],
  ['[remote "o"]\n\tvcs = evil\n', 'remote.o.vcs'],
  ['[remote "o"]\n\turl = ext::sh -c evil\n', 'remote.o.url'],
  ['[url "ext::sh -c evil"]\n\tinsteadOf = https://\n', 'insteadof'],
  ['[submodule "s"]\n\tupdate = !evil\n', 'submodule.s.update'],
  ['[init]\n\ttemplateDir = /tmp/t\n', 'init.templatedir'],
  ['[log]\n\tshowSignature = true\n', 'log.showsignature'],
  ['[uploadpack]\n\tpackObjectsHook = evil\n', 'uploadpack.packobjectshook'],
  ['[sendemail]\n\tsmtpServer = /tmp/evil\n', 'sendemail.smtpserver'],
  ['[receive]\n\tprocReceiveRefs = refs\n', 'receive.procreceiverefs'],
  ['[trace2]\n\teventTarget = /tmp/x\n', 'trace2.eventtarget'],
  ['[safe]\n\tdirectory = *\n', 'safe.directory'],
  ['[blame]\n\tignoreRevsFile = /home/u/.ssh/id_rsa\n', 'blame.ignorerevsfile'],
  ['[blame]\n\tignoreRevsFile = ../../x\n', 'blame.ignorerevsfile'],
  ['[commit]\n\ttemplate = /etc/passwd\n', 'commit.template'],
  ['[core]\n\thooksPath = ../../hooks\n', 'core.hookspath'],
  ['[core]\n\thooksPath = ~/hooks\n', 'core.hookspath'],
  ['[branch "main"]\n\tmergeOptions = -s evil\n', 'branch.main.mergeoptions'],
  // finding 1: a subsection with `=` shifts the key/value split of a `-c` built from it
  [`[filter "a.clean=sh -c 'touch /tmp/p' #"]\n\tsmudge = x\n`, 'subsection name containing "="'],
  ['[filter "a\\"b"]\n\tclean = x\n', 'section header'],
  ['[filter "a\\\\b"]\n\tclean = x\n', 'backslash'],
  ['[core]\n\tbare = false\x01\n', 'control character'],
  ['[co\x1bre]\n', 'control character'],
  ['[core "a\rb"]\n', 'control character'],
  ['[core.x]\n\tbare = false\n', 'section header'],
  ['bare = false\n', 'before any [section]'],
  ['[core] pager = evil\n', 'section header'],
  ['[core]\n\tbare = "false\n', 'unterminated quote'],
  ['[core]\n\tbare = fal\\\nse\n', 'line continuation'],
  ['[core]\n\tbare = \\q\n', 'unknown escape'],
  ['[core]\n\tbare false\n', 'not "= value"'],
  ['[core]\n\t-bare = false\n', 'letters, digits'],
];

/** Ordinary configs (what git init/clone/submodule add/worktree/CI checkouts write). */
const SAFE: string[] = [
  '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n',
  '[core]\r\n\tbare = false\r\n',
  '\uFEFF[core]\n\tbare = false\n',
  '[remote "origin"]\n\turl = https://github.com/a/b.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
  '[remote "o"]\n\turl = git@github.com:a/b.git\n\tpushurl = ssh://git@h/x\n',
  '[submodule "lib"]\n\turl = /src/lib\n\tactive = true\n\tupdate = rebase\n',
  '[user]\n\tname = "A B" ; comment\n\temail = a@b # comment\n',
  '[extensions]\n\tobjectformat = sha256\n\tworktreeConfig = true\n',
  '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eHg=\n',
  '[color]\n\tui = auto\n[color "diff"]\n\tmeta = yellow bold\n',
  '[diff]\n\trenames = true\n[pull]\n\trebase = true\n[init]\n\tdefaultBranch = main\n',
  '[include]\n\tpath = extra.cfg\n[includeIf "gitdir:/x/"]\n\tpath = other.cfg\n',
  '[core]\n\tworktree = ../../../sub\n',
  '# comment\n; comment\n\n[advice]\n\tdetachedHead = false\n',
  '[url "https://github.com/"]\n\tinsteadOf = git@github.com:\n',
  '[lfs]\n\trepositoryformatversion = 0\n[lfs "https://h/x.git/info/lfs"]\n\taccess = basic\n',
  '[core]\n\tbare\n',
  '[core]\n\tfsmonitor = false\n[maintenance]\n\tauto = false\n\tstrategy = incremental\n[index]\n\tsparse = true\n',
  '[core]\n\thooksPath = .husky/_\n',
  '[blame]\n\tignoreRevsFile = .git-blame-ignore-revs\n[branch "main"]\n\tvscode-merge-base = origin/main\n[gui]\n\twmstate = normal\n',
];

describe('git config judge: refused (git.unsafe_config)', () => {
  for (const [text, want] of UNSAFE) {
    it(JSON.stringify(text.slice(0, 60)), () => {
      assert.throws(
        () => judgeGitConfig(text, F),
        (e: unknown) => e instanceof PolicyDenial && e.rule === GIT_UNSAFE_CONFIG && e.message.toLowerCase().includes(want.toLowerCase()) && e.message.includes(F),
      );
    });
  }
});

describe('git config judge: allowed', () => {
  for (const text of SAFE) {
    it(JSON.stringify(text.slice(0, 60)), () => {
      judgeGitConfig(text, F);
    });
  }
  it('reports includes, core.worktree and worktreeConfig for the inspector to resolve', () => {
    const v = judgeGitConfig('[include]\n\tpath = a\n[includeIf "onbranch:x"]\n\tpath = /b\n[core]\n\tworktree = ../w\n[extensions]\n\tworktreeconfig\n', F);
    assert.deepEqual(v.includes.map((i) => i.path), ['a', '/b']);
    assert.equal(v.worktree?.path, '../w');
    assert.equal(v.worktreeConfig, true);
  });
});

describe('git config parser', () => {
  it('keeps subsection case, lower-cases section and name, applies quoting and escapes', () => {
    const p = parseGitConfig('[Remote "Origin"]\n\tURL = " a b\\t\\"c\\" "  # c\n\tpushURL = x\\ty  z ; c\n');
    assert.ok(p.ok);
    assert.deepEqual(p.entries[0], { section: 'remote', subsection: 'Origin', name: 'url', value: ' a b\t"c" ', line: 2 });
    assert.deepEqual(p.entries[1], { section: 'remote', subsection: 'Origin', name: 'pushurl', value: 'x\ty  z', line: 3 });
  });
  it('refuses values in unusual quoting (several segments, empty quotes, mixed), naming the line and key', () => {
    for (const v of ['" a b " x', '"" /abs/evil.inc', 'sh -c "touch x"', '""']) {
      const p = parseGitConfig(`[include]\n\tpath = ${v}\n`);
      assert.ok(!p.ok && p.line === 2 && /unusual quoting.*include\.path/.test(p.reason), JSON.stringify(p));
    }
  });
});

describe('git pointers and stage targets', () => {
  it('parses .git files strictly', () => {
    // Returned as written: the check resolves it as the OS does (resolve-pointer), never lexically.
    assert.equal(parseGitFile('gitdir: ../.git/modules/s\n', '/r/s/.git'), '../.git/modules/s');
    assert.throws(() => parseGitFile('gitdir: a\ngitdir: b\n', '/r/.git'), /git.unsafe_config|gitdir/);
  });
  it('reads alternates and include paths as written (resolved later as the OS does)', () => {
    assert.deepEqual(parseAlternates('# c\n../../other/objects\n/abs/objects\n', '/r/.git/objects'), ['../../other/objects', '/abs/objects']);
    assert.equal(includeTarget('lnk/../x.cfg', '/r/.git/config', 'include.path'), 'lnk/../x.cfg');
    assert.throws(() => includeTarget('~/.gitconfig', '/r/.git/config', 'include.path'), (e: unknown) => e instanceof PolicyDenial);
  });
  it('finds git behind wrappers and honours -C, --git-dir and --bare', () => {
    assert.deepEqual(gitInvocation(['timeout', '5', '/usr/bin/git', 'status'], '/w'), { cwd: '/w' });
    assert.deepEqual(gitInvocation(['env', 'A=1', 'GIT_AUTHOR_NAME=x', 'git', '-C', 'x', 'log'], '/w'), { cwd: '/w/x' });
    assert.deepEqual(gitInvocation(['env', '-C', 'sub', 'GIT_DIR=../evil.git', 'nice', 'git', 'log'], '/w'), { cwd: '/w/sub', gitDir: '/w/sub/../evil.git' });
    // Never normalized lexically: `lnk/..` is where the OS takes it (the check realpaths it).
    assert.deepEqual(gitStageTarget(['-C', 'lnk/..', '--git-dir', './lnk/../g', 'status'], '/w'), { cwd: '/w/lnk/..', gitDir: '/w/lnk/../lnk/../g' });
    assert.equal(gitInvocation(['ls', 'git'], '/w'), null);
    for (const v of ['GIT_CONFIG_PARAMETERS=x', 'GIT_COMMON_DIR=/x', 'GIT_OBJECT_DIRECTORY=/x', 'GIT_CONFIG_GLOBAL=/x']) {
      assert.throws(() => gitInvocation(['env', v, 'git', 'status'], '/w'), (e: unknown) => e instanceof PolicyDenial && e.rule === 'git.unsafe_config' && e.message.includes(v.split('=')[0]!));
    }
    assert.throws(() => gitInvocation(['env', '-S', 'git status'], '/w'), (e: unknown) => e instanceof PolicyDenial && e.rule === 'git.unsafe_config');
    assert.deepEqual(gitStageTarget(['-C', 'a', '-C', 'b', 'status'], '/w'), { cwd: '/w/a/b' });
    assert.deepEqual(gitStageTarget(['--git-dir=g', '-C', 'a', 'log'], '/w'), { cwd: '/w/a', gitDir: '/w/a/g' });
    assert.deepEqual(gitStageTarget(['-c', 'x=y', '--bare', 'log'], '/w'), { cwd: '/w', gitDir: '/w' });
  });
});

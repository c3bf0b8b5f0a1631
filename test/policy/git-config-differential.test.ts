// Differential test of the strict parser against real git: for every text the parser accepts,
// `git config --file F --list -z` must see exactly the same keys and values. A text git reads
// differently from the parser would let a key slip past the allowlist.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { keyName } from '../../src/policy/git-config/judge-git-config.js';
import { parseGitConfig } from '../../src/policy/git-config/parse-git-config.js';

const TRICKY: string[] = [
  '[core]\n\tpager = "a # b" # c\n',
  '[core]\n\tpager = a ; b\n',
  '[core]\n\tpager = "a\\"b" c\n',
  '[core]\n\tpager = a\\tb\\\\c\\nd\n',
  '[core]\n\tpager=x\n',
  '[core]\n\tpager   =    spaced   out   \n',
  '[core]\n\tpager\n',
  '[core]\n\tpager =\n',
  '[core]\n\tpager = ""\n',
  '[core]\r\n\tpager = crlf\r\n',
  '\uFEFF[core]\n\tpager = bom\n',
  '[CoRe]\n\tPaGeR = case\n',
  '[filter "A b]c"]\n\tclean = x\n',
  '[filter "a.clean"]\n\tsmudge = x\n',
  '[filter\t"tab"]\n\tclean = x\n',
  '[a-b]\n\tc-d = 1\n',
  '[core] # comment\n\tpager = x\n',
  '[core]\n\tpager = x"y"z\n',
  '[core]\n\tpager = "x" "y"\n',
  '[core]\n   pager = indented\n',
  '[core]\n\tpager = a\t\tb\n',
  '[include]\n\tpath = ../x\n',
  '[remote "o"]\n\turl = https://h/x#frag\n',
  '[remote "o"]\n\turl = "https://h/x#frag"\n',
  '[remote "a b"]\n\turl = x\n',
  '',
  '# only\n; comments\n',
  '[a1]\n\tk2 = v\n',
  '[core]\n\tpager = x\n[core]\n\tpager = y\n',
  '[filter "a.clean=sh -c \'touch /tmp/p\' #"]\n\tsmudge = x\n',
  '[core]\n\tpager = a\\\n b\n',
  '[core]\n\tpager = "open\n',
  // Red team (F1): git drops the blank after an empty "" (value still empty), the parser must not guess.
  '[include]\n\tpath = "" /tmp/evil.inc\n',
  '[core]\n\tfsmonitor = "" false\n',
  '[core]\n\tfsmonitor = false ""\n',
  '[submodule "a"]\n\tupdate = none ""\n',
  '[remote "o"]\n\turl = "" ext::sh -c x\n',
  '[core]\n\tpager = "" "" x\n',
  '[core]\n\tpager = ""x\n',
  '[core]\n\tpager = "a"b\n',
  '[core]\n\tpager = a"b c"\n',
  '[core]\n\tpager = "a" ; c\n',
  '[core]\n\tpager = "a\tb"  \n',
  '[core]\n\tpager = \\ta b\n',
  '[core]\n\tpager = a \\" b\n',
  '[core]\n\tpager = "  lead and trail  "\n',
  '[diff "py"]\n\txfuncname = ^[ \\t]*(def|class)\\s.*$\n',
];

// The plain forms the parser accepts; everything else with quotes is refused as unusual quoting.
const UNUSUAL = ['"" /tmp/evil.inc', '"" false', 'false ""', 'none ""', '"" ext::sh -c x', '""', '"a"b', 'a"b"', '"a" "b"', '"a""b"'];


describe('values in unusual quoting are refused, naming the line', () => {
  for (const v of UNUSUAL) {
    it(v, () => {
      const r = parseGitConfig(`[core]\n\tpager = ${v}\n`);
      assert.ok(!r.ok && r.line === 2 && /quot/.test(r.reason), JSON.stringify(r));
    });
  }
});

describe('the strict parser reads config exactly like git', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-gitcfg-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  TRICKY.forEach((text, i) => {
    it(JSON.stringify(text), () => {
      const file = join(dir, `c${i}`);
      writeFileSync(file, text);
      const ours = parseGitConfig(text);
      let theirs: string[] | null;
      try {
        const out = execFileSync('git', ['config', '--file', file, '--list', '-z', '--no-includes'], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }).toString('utf8');
        theirs = out.split('\0').filter((r) => r !== '');
      } catch {
        theirs = null;
      }
      if (!ours.ok) return; // refused: always safe
      assert.ok(theirs !== null, 'the parser accepted text git rejects');
      const mine = ours.entries.map((e) => (e.value === null ? keyName(e) : `${keyName(e)}\n${e.value}`));
      assert.deepEqual(mine, theirs);
    });
  });
});

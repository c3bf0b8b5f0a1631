// tokenize(): POSIX quoting without a shell; every other construct refused with a rule id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolicyDenial } from '../../src/policy/denial.js';
import { tokenize } from '../../src/policy/tokenize.js';
import { checkArgv } from '../../src/policy/argv-limits.js';

function rule(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof PolicyDenial, `threw ${String(err)}`);
    return err.rule;
  }
  assert.fail('did not throw');
}

describe('tokenize', () => {
  const cases: [string, string[][]][] = [
    ['ls -la', [['ls', '-la']]],
    ['  ls   -la  ', [['ls', '-la']]],
    ["grep 'a|b' f", [['grep', 'a|b', 'f']]],
    ['grep "two words" f', [['grep', 'two words', 'f']]],
    ["echo 'it''s'", [['echo', 'its']]],
    ['echo "a\\"b"', [['echo', 'a"b']]],
    ['echo "a\\nb"', [['echo', 'a\\nb']]],
    ['echo a\\ b', [['echo', 'a b']]],
    ["echo ''", [['echo', '']]],
    ['echo ""x', [['echo', 'x']]],
    ["echo '$HOME'", [['echo', '$HOME']]],
    ['echo foo$', [['echo', 'foo$']]],
    ['echo a~b x#y', [['echo', 'a~b', 'x#y']]],
    ['git show HEAD@{1}', [['git', 'show', 'HEAD@{1}']]],
    ['a | b|c', [['a'], ['b'], ['c']]],
    ["find . -name '*.ts'", [['find', '.', '-name', '*.ts']]],
    ['find . -exec x \\;', [['find', '.', '-exec', 'x', ';']]],
    ['[ -f a ]', [['[', '-f', 'a', ']']]],
    ["x 'a\tb'", [['x', 'a\tb']]],
  ];
  for (const [input, stages] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => assert.deepEqual(tokenize(input).stages, stages));
  }

  const refused: [string, string][] = [
    ['a;b', 'shell.metachar'], ['a && b', 'shell.metachar'], ['a || b', 'shell.metachar'], ['a &', 'shell.metachar'],
    ['a $(b)', 'shell.metachar'], ['a `b`', 'shell.metachar'], ['a ${b}', 'shell.metachar'], ['a $b', 'shell.metachar'],
    ['a "$b"', 'shell.metachar'], ['a "`b`"', 'shell.metachar'], ['a < b', 'shell.metachar'], ['a > b', 'shell.metachar'],
    ['a >> b', 'shell.metachar'], ['a 2>&1', 'shell.metachar'], ['a <<E', 'shell.metachar'], ['a *', 'shell.metachar'],
    ['a ?', 'shell.metachar'], ['a [xy]', 'shell.metachar'], ['a ~', 'shell.metachar'], ['a\nb', 'shell.metachar'],
    ['a\0', 'shell.metachar'], ['a | | b', 'shell.metachar'], ['a |& b', 'shell.metachar'], ['a |', 'shell.metachar'],
    ['(a)', 'shell.metachar'], ['X=1 a', 'shell.metachar'], ['a {x,y}', 'shell.metachar'], ['a #c', 'shell.metachar'],
    ["a 'b", 'shell.syntax'], ['a "b', 'shell.syntax'], ['a \\', 'shell.syntax'], ["a 'x\ny'", 'arg.control_char'],
    ['', 'cmd.empty'], ['   ', 'cmd.empty'],
  ];
  for (const [input, expected] of refused) {
    it(`refuses ${JSON.stringify(input)} with ${expected}`, () => assert.equal(rule(() => tokenize(input)), expected));
  }

  it('names the construct and the alternative in its message', () => {
    try {
      tokenize('ls; id');
      assert.fail('did not throw');
    } catch (err) {
      assert.ok(err instanceof PolicyDenial);
      assert.match(err.message, /`;` \(command separator\)/);
      assert.match(err.message, /runs no shell/);
    }
  });
});

describe('checkArgv', () => {
  it('accepts ordinary argv', () => checkArgv(['ls', '-la', 'a b', '$HOME']));
  it('refuses NUL, newline and CR', () => {
    for (const bad of ['a\0', 'a\n', 'a\r']) assert.equal(rule(() => checkArgv(['echo', bad])), 'arg.control_char');
  });
  it('bounds count and size', () => {
    assert.equal(rule(() => checkArgv(Array.from({ length: 1025 }, () => 'a'))), 'arg.too_long');
    checkArgv(Array.from({ length: 1024 }, () => 'a'));
    assert.equal(rule(() => checkArgv(['echo', 'é'.repeat(17 * 1024)])), 'arg.too_long');
    checkArgv(['echo', 'x'.repeat(32 * 1024)]);
  });
});

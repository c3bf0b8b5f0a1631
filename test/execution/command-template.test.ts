// Templating on structure, unit level: the tokenizer sees the template, never the values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quoteStages } from '../../src/execution/scheduler/argv-quote.js';
import { resolveCommandArgv, resolveCommandString } from '../../src/execution/scheduler/command-template.js';
import { MissingContextError, SubstitutionError } from '../../src/execution/scheduler/context-refs.js';
import { tokenize } from '../../src/policy/tokenize.js';

/** Values an attacker controls (file names, command output); each must stay one argument. */
const HOSTILE = [
  'a | touch X', 'a; touch X', '$(touch X)', '`touch X`', 'a && touch X', 'a || touch X', "a' | touch X '", 'a" | touch X "b',
  'a > X', '< /etc/passwd', '*', '~/.ssh/id_rsa', '#x', 'FOO=1', '{a,b}', '[ab]', '\\', "'", '"', '', '   ', '-rf', '--output=/etc/x', '\u00e9\u4e2d', '$HOME', "$'\\x41'",
];

describe('resolveCommandString', () => {
  it('puts every hostile value into exactly one argument, wherever the reference stands', () => {
    for (const v of HOSTILE) {
      const ctx = { v };
      assert.deepEqual(resolveCommandString('cat {{context.v}}', ctx, {}).stages, [['cat', v]], v);
      assert.deepEqual(resolveCommandString("cat 'in/{{context.v}}' x", ctx, {}).stages, [['cat', `in/${v}`, 'x']], v);
      assert.deepEqual(resolveCommandString('cmd "--file={{context.v}}"', ctx, {}).stages, [['cmd', `--file=${v}`]], v);
      assert.deepEqual(resolveCommandString('cat {{context.v}} | wc -c', ctx, {}).stages, [['cat', v], ['wc', '-c']], v);
      assert.deepEqual(resolveCommandArgv(['cat', 'x{{context.v}}'], ctx, {}).stages, [['cat', `x${v}`]], v);
    }
  });

  it('still refuses shell constructs written in the template itself', () => {
    for (const tmpl of ['cat {{context.v}}; rm x', 'cat {{context.v}} > out', 'echo $(id) {{context.v}}', 'x=1 cat {{context.v}}']) {
      assert.throws(() => resolveCommandString(tmpl, { v: 'a' }, {}), (e: Error & { rule?: string }) => e.rule?.startsWith('shell.') === true, tmpl);
    }
  });

  it('names the substitution when a value cannot be an argument', () => {
    assert.throws(() => resolveCommandString('cat {{context.v}}', { v: 'a\nb' }, {}), (e: SubstitutionError) => e.rule === 'arg.control_char' && /\{\{context\.v\}\} \(substituted into argument 1 of stage 1\)/.test(e.message));
    assert.throws(() => resolveCommandString('cat {{context.v}}', { v: 'a\u0000b' }, {}), (e: SubstitutionError) => e.rule === 'context.nul');
    assert.throws(() => resolveCommandString('cat \uE0000\uE001', { v: 'a' }, {}), (e: SubstitutionError) => e.rule === 'context.template');
    assert.throws(() => resolveCommandString('a | grep {{context.nope}}', {}, {}), (e: MissingContextError) => /command \(stage 2, argument 1\)/.test(e.message));
  });

  it('drops one trailing newline of a whole stdout, keeps other values exact, and writes non-strings as JSON', () => {
    const ctx = { head: { stdout: 'abc\n' }, two: { stdout: 'x\n\n' }, n: 3, o: { a: [1] }, text: 'keep\n' };
    assert.deepEqual(resolveCommandString('git show {{context.head.stdout}}', ctx, {}).stages, [['git', 'show', 'abc']]);
    assert.throws(() => resolveCommandString('echo {{context.two.stdout}}', ctx, {}), SubstitutionError);
    assert.throws(() => resolveCommandString('echo {{context.text}}', ctx, {}), SubstitutionError);
    assert.deepEqual(resolveCommandString('echo {{context.n}} {{context.o}}', ctx, {}).stages, [['echo', '3', '{"a":[1]}']]);
  });

  it('keeps a placeholder for a value a dry run does not know yet, and lists it', () => {
    const r = resolveCommandString('cp {{context.later.stdout}} out', {}, { placeholders: new Set(['later']) });
    assert.deepEqual(r.stages, [['cp', '{{context.later.stdout}}', 'out']]);
    assert.deepEqual(r.unresolved, ['{{context.later.stdout}}']);
  });

  it('takes a whole-command reference to an array of strings as the argv', () => {
    assert.deepEqual(resolveCommandString('{{context.argv}}', { argv: ['ls', 'a b', 'c;d'] }, {}).stages, [['ls', 'a b', 'c;d']]);
    assert.deepEqual(resolveCommandString('{{context.s}}', { s: 'ls -la' }, {}).stages, [['ls -la']], 'a string value stays one argument');
  });
});

describe('quoteStages', () => {
  it('round-trips any stages without control characters through the policy tokenizer', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = [...`abc XYZ019 |;&$()\`'"\\<>*?[]{}~#=!-.,/\t\u00e9\u4e2d`];
    for (let n = 0; n < 500; n++) {
      const stages = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
        Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Array.from({ length: Math.floor(rnd() * 8) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('')),
      );
      for (const s of stages) if (s[0] === '') s[0] = 'p';
      assert.deepEqual(tokenize(quoteStages(stages)).stages, stages);
    }
  });
});

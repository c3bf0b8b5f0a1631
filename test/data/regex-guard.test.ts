// Red team F9: without ripgrep, the built-in engine ran `^(a+)+$` on a 29-character line for 24 s
// on the event loop. Nested unbounded repetition and backreferences are refused up front
// (search.regex_backtracking); ordinary regexes keep working. Two tables, then the effect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { assertBoundedRegex } from '../../src/data/search/regex-guard.js';
import { AppError } from '../../src/shared/errors.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const REFUSED = ['^(a+)+$', '(a*)*', '(x+x+)+y', '((ab)*)+', '(a+){2,}', '(\\w+\\s?)*$', '(?:a+)+', '(a+)*?', '([a-z]+)+z', '(a)\\1', '(?<x>a)\\k<x>', '((a+)b)+'];
const ALLOWED = ['foo.*bar', 'a+b+', '(ab)+', '(foo|bar)', '[(a+)]+', '\\(a+\\)+', '^\\d{4}-\\d{2}$', '(a+)?', '(a+){1}', 'x{2,}y', 'TODO\\(\\w+\\)', '[\\]+]+', '(?=a+)b'];

for (const re of REFUSED) {
  test(`refused: ${re}`, () => {
    assert.throws(() => assertBoundedRegex(re), (e: unknown) => e instanceof AppError && e.rule === 'search.regex_backtracking');
  });
}
for (const re of ALLOWED) {
  test(`allowed: ${re}`, () => {
    assert.doesNotThrow(() => assertBoundedRegex(re));
    assert.doesNotThrow(() => new RegExp(re, 'u'), 'the table holds valid regexes');
  });
}

test('the built-in engine refuses ^(a+)+$ before reading files, and still finds ordinary regexes', async (t) => {
  const ctx = makeDataDeps();
  t.after(() => ctx.cleanup());
  writeFileSync(join(ctx.ws, 'evil.txt'), `${'a'.repeat(29)}b\nfoo-123\n`);
  const tools = fileTools(ctx.deps, { searchEngine: 'builtin' });
  const e = await callError(tools, 'file_search', { path: ctx.ws, query: '^(a+)+$', regex: true });
  assert.equal(e.rule, 'search.regex_backtracking');
  const ok = await call(tools, 'file_search', { path: ctx.ws, query: 'foo-\\d+', regex: true });
  assert.deepEqual(ok.data.matches.map((m: { line: number }) => m.line), [2]);
});

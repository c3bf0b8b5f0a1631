// Red team: the sed and awk script checkers in read-only can be fooled into allowing `e`/system().
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

describe('redteam: read-only sed/awk run arbitrary commands', () => {
  const t = testApp('read-only');
  before(() => writeFileSync(join(t.ws, 'a.txt'), 'one\n'));
  after(() => t.close());

  const cases: Array<[string, string[]]> = [
    // sed.ts toEnd(';}') swallows "a e echo ..." as the label, but GNU sed ends a label at whitespace.
    ['sed label then e', ['sed', '-n', ':a e echo PWNED-SED', 'a.txt']],
    // awk.ts treats `/` after a non-keyword identifier (exit) as division, so `"` opens a string that hides system().
    ['awk exit /re/ hides system()', ['awk', 'BEGIN { if (0) exit /"/; system("echo PWNED-AWK"); y = /"/ }']],
  ];
  for (const [name, cmd] of cases) {
    test(name, async () => {
      const r = await t.call('run_command', { command: cmd, cwd: t.ws });
      assert.ok(!String(r.s.stdout ?? '').includes('PWNED'), `read-only ${name} ran a shell command: ${JSON.stringify(cmd)} → ${JSON.stringify(r.s.stdout)}`);
    });
  }
});

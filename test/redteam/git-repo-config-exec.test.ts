// Red team: a hostile repository's own config (filter.<x>.clean, diff.<x>.textconv) runs programs
// through git. The git_* adapters' git runs on the host, so this was host code execution from the
// read-only profile. The repository is now refused (git.unsafe_config) before any git runs; the
// full corpus is in git-unsafe-config.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

function hostileRepo(ws: string, outside: string): void {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
  const git = (...a: string[]) => execFileSync('git', a, { cwd: ws, env, stdio: 'pipe' });
  git('init', '-q');
  writeFileSync(join(ws, 'a.txt'), 'hello\n');
  writeFileSync(join(ws, '.gitattributes'), 'a.txt filter=x diff=tc\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  // What a cloned/untrusted repository ships in .git/config:
  git('config', 'filter.x.clean', `sh -c "echo PWNED-FILTER >&2; touch ${outside}/marker-filter-\\$\\$; cat"`);
  git('config', 'diff.tc.textconv', `sh -c "echo PWNED-TEXTCONV; touch ${outside}/marker-textconv; cat \\"\\$0\\""`);
  writeFileSync(join(ws, 'a.txt'), 'hello\nchanged\n');
}

describe('redteam: repository-local git config runs programs (read-only)', () => {
  const t = testApp('read-only');
  before(() => hostileRepo(t.ws, t.outside));
  after(() => t.close());

  test('git_diff adapter does not run filter.<driver>.clean on the host', async () => {
    const r = await t.call('git_diff', { path: t.ws });
    assert.equal(r.s.rule, 'git.unsafe_config', r.text);
    const markers = readdirSync(t.outside);
    assert.deepEqual(markers, [], `git_diff ran the repository's filter.x.clean UNSANDBOXED on the host (created ${markers.join(', ')} outside every root); run-git.ts the repository check must refuse it`);
  });

  for (const cmd of [['git', 'diff'], ['git', 'blame', 'a.txt'], ['git', 'annotate', 'a.txt']]) {
    test(`run_command ${cmd.join(' ')} runs no repository-configured program`, async () => {
      const r = await t.call('run_command', { command: cmd, cwd: t.ws });
      assert.equal(r.s.rule, 'git.unsafe_config', r.text);
      const out = `${r.s.stdout ?? ''}${r.s.stderr ?? ''}${r.text}`;
      assert.ok(!out.includes('PWNED'), `read-only \`${cmd.join(' ')}\` executed a program from .git/config (filter clean / textconv): ${JSON.stringify(out.slice(0, 300))}`);
    });
  }
});

// Git never finds a repository above the workspace: a home directory under git must not expose
// files outside the roots through git_status/git_diff or run_command git.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

describe('git stops at the roots', () => {
  const t = testApp('read-only');
  before(() => {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: t.base, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: t.base } });
    git('init', '-q');
    writeFileSync(join(t.base, 'outside-secret.txt'), 'committed\n');
    git('add', 'outside-secret.txt');
    git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '-m', 'x');
    writeFileSync(join(t.base, 'outside-secret.txt'), 'CHANGED-OUTSIDE-ROOTS\n');
    mkdirSync(join(t.ws, 'sub'), { recursive: true });
  });
  after(() => t.close());

  test('the adapters do not climb into the enclosing repository', async () => {
    for (const tool of ['git_status', 'git_diff']) {
      const r = await t.call(tool, { path: t.ws });
      assert.equal(r.s.success, false, `${tool}: ${r.text}`);
      assert.equal(r.s.error_class, 'not_found');
      assert.ok(!r.text.includes('CHANGED-OUTSIDE-ROOTS'));
    }
  });

  test('run_command git does not either', async () => {
    const r = await t.call('run_command', { command: ['git', 'diff'], cwd: t.ws });
    assert.equal(r.s.success, false, r.text);
    assert.ok(!String(r.s.stdout).includes('CHANGED-OUTSIDE-ROOTS'));
  });
});

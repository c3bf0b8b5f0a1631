// Red team (issue 10, findings 1, 2, 3, 5): a repository's own content must not make git run a
// program or read outside the roots. Every corpus repository is refused with git.unsafe_config,
// naming the key, by the git adapters and by run_command / job_start git — effect-based: no marker
// file appears outside the roots, and no canary from outside the roots appears in any output.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';
import { CORPUS, type CorpusCase } from './git-unsafe-config-corpus.js';

type App = ReturnType<typeof testApp>;
const CANARY = 'CANARY-7f3e9a1c-outside-roots';

function plantAll(t: App): void {
  mkdirSync(join(t.outside, 'markers'));
  for (const c of CORPUS) c.plant({ repo: join(t.ws, c.name), outside: t.outside, touch: `touch ${t.outside}/markers/${c.name}`, canary: CANARY });
}

function assertRefused(r: { s: Record<string, any>; isError: boolean; text: string }, c: CorpusCase, what: string): void {
  assert.equal(r.isError, true, `${c.name}: ${what} was not refused: ${r.text.slice(0, 300)}`);
  assert.equal(r.s.rule, 'git.unsafe_config', `${c.name}: ${what}: ${r.text}`);
  assert.ok(r.text.toLowerCase().includes(c.names.toLowerCase()), `${c.name}: ${what}: the refusal must name ${c.names}: ${r.text}`);
}

function assertNoEffects(t: App, outputs: string[]): void {
  assert.deepEqual(readdirSync(join(t.outside, 'markers')), [], 'a repository-configured program ran');
  for (const o of outputs) assert.ok(!o.includes(CANARY), `content from outside the roots leaked: ${o.slice(0, 300)}`);
}

const RUNS: string[][] = [['git', 'status'], ['git', 'diff'], ['git', 'log', '-p'], ['git', 'show', '--pretty=%GG', 'HEAD'], ['git', 'show', '--pretty=%G?', 'HEAD'], ['git', 'log', 'stolen']];

describe('redteam: hostile repository config, read-only profile', () => {
  const t = testApp('read-only');
  const outputs: string[] = [];
  before(() => plantAll(t));
  after(() => t.close());

  for (const c of CORPUS) {
    test(`${c.name}: git_status / git_diff / git_log refuse`, async () => {
      for (const tool of ['git_status', 'git_diff', 'git_log']) {
        const r = await t.call(tool, { path: join(t.ws, c.name) });
        outputs.push(JSON.stringify(r));
        assertRefused(r, c, tool);
      }
    });
    test(`${c.name}: run_command git refuses (also via -C and from a subdirectory)`, async () => {
      for (const cmd of RUNS) {
        const r = await t.call('run_command', { command: cmd, cwd: join(t.ws, c.name) });
        outputs.push(JSON.stringify(r));
        assertRefused(r, c, cmd.join(' '));
      }
      const viaC = await t.call('run_command', { command: ['git', '-C', c.name, 'status'], cwd: t.ws });
      outputs.push(JSON.stringify(viaC));
      assertRefused(viaC, c, 'git -C');
      // --git-dir names the repository directly (a .git file given as --git-dir is followed by git too).
      if (!c.name.startsWith('gitlink-unsafe')) {
        const gitDir = c.name === 'bare-repo' ? join(t.ws, c.name) : join(t.ws, c.name, '.git');
        const viaGitDir = await t.call('run_command', { command: ['git', `--git-dir=${gitDir}`, 'log', '-p'], cwd: t.ws });
        outputs.push(JSON.stringify(viaGitDir));
        assertRefused(viaGitDir, c, 'git --git-dir');
      }
      const check = await t.call('policy_check', { command: ['git', 'status'], cwd: join(t.ws, c.name) });
      assert.equal(check.s.allowed, false, `${c.name}: policy_check said allowed`);
      assert.equal(check.s.rule, 'git.unsafe_config');
    });
  }

  test("UFO's execute_command path refuses too", async () => {
    const { runForUfo } = await import('../../src/control/compat/ufo-run.js');
    for (const c of CORPUS) {
      await assert.rejects(runForUfo(t.app.deps, { command: 'git status', cwd: join(t.ws, c.name), timeoutS: 10 }), (e: Error & { rule?: string }) => e.rule === 'git.unsafe_config', c.name);
    }
  });

  test('nothing ran and nothing leaked', () => assertNoEffects(t, outputs));
});

describe('redteam: hostile repository config, workspace-write profile', () => {
  const t = testApp('workspace-write');
  const outputs: string[] = [];
  before(() => plantAll(t));
  after(() => t.close());

  for (const c of CORPUS) {
    test(`${c.name}: run_command, wrapped git and job_start refuse`, async () => {
      for (const cmd of [['git', 'status'], ['git', 'show', '--pretty=%GG', 'HEAD'], ['timeout', '10', 'git', 'diff'], ['git', '--no-pager', 'log', '-p']]) {
        const r = await t.call('run_command', { command: cmd, cwd: join(t.ws, c.name) });
        outputs.push(JSON.stringify(r));
        assertRefused(r, c, cmd.join(' '));
      }
      const job = await t.call('job_start', { command: ['git', 'diff'], cwd: join(t.ws, c.name) });
      outputs.push(JSON.stringify(job));
      assertRefused(job, c, 'job_start git diff');
      // The repository named through env's GIT_DIR (from a directory that is no repository) is the one checked.
      const gitDir = c.name === 'bare-repo' ? join(t.ws, c.name) : join(t.ws, c.name, '.git');
      const viaEnv = await t.call('run_command', { command: ['env', `GIT_DIR=${gitDir}`, 'git', 'log', '-p'], cwd: t.ws });
      outputs.push(JSON.stringify(viaEnv));
      // (Not for a gitlink: with GIT_DIR the work tree is the cwd, where that submodule is not
      // checked out, so git cannot enter it.)
      if (!c.name.startsWith('gitlink-unsafe')) assertRefused(viaEnv, c, 'env GIT_DIR=… git log');
    });
  }

  test('git variables that relocate the repository or its config are refused', async () => {
    const r = await t.call('run_command', { command: ['env', 'GIT_CONFIG_PARAMETERS=\'core.pager\'=\'x\'', 'git', 'log'], cwd: t.ws });
    assert.equal(r.s.rule, 'git.unsafe_config', r.text);
    assert.match(r.text, /GIT_CONFIG_PARAMETERS/);
  });

  test('nothing ran and nothing leaked', () => assertNoEffects(t, outputs));
});

// Red team: a task step that runs git on a hostile repository is refused like run_command
// (git.unsafe_config) and runs nothing — the scheduler goes through the same gate.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { CORPUS } from './git-unsafe-config-corpus.js';

describe('redteam: task steps running git on a hostile repository', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  const cases = CORPUS.filter((c) => ['filter-clean', 'gpg-program', 'subsection-equals'].includes(c.name));
  before(() => {
    dirs = tempDirs('wb-gittask-');
    mkdirSync(join(dirs.root, 'outside', 'markers'), { recursive: true });
    for (const c of cases) c.plant({ repo: join(dirs.workspace, c.name), outside: join(dirs.root, 'outside'), touch: `touch ${dirs.root}/outside/markers/${c.name}`, canary: 'CANARY-task' });
    t = taskApp(dirs, 'read-only');
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  for (const c of cases) {
    it(`${c.name}: the step fails with git.unsafe_config and nothing runs`, async () => {
      const res = await t.call('task_create', {
        steps: [{ action: 'run_command', parameters: { command: ['git', 'show', '--pretty=%GG', 'HEAD'], cwd: join(dirs.workspace, c.name) } }],
      });
      assert.equal(res.isError, false, JSON.stringify(res.structuredContent));
      const done = await t.waitTask(res.structuredContent.task_id as string, ['paused', 'failed', 'completed']);
      assert.notEqual(done.status, 'completed');
      assert.match(JSON.stringify(done.steps[0]), /git\.unsafe_config/);
      assert.deepEqual(readdirSync(join(dirs.root, 'outside', 'markers')), []);
    });
  }
});

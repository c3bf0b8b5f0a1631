// Red team: read_file checks realpath, then opens the resolved path later. A workspace-write job
// that swaps a workspace directory for a symlink to the state directory wins the race and the
// unsandboxed adapter returns the API token.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

const TOKEN = 'wb-api-token-value-123456';

describe('redteam: read_file TOCTOU reaches the state directory (workspace-write)', () => {
  const t = testApp('workspace-write');
  let jobId: string | undefined;
  before(() => {
    writeFileSync(join(t.state, 'api-token'), `${TOKEN}\n`, { mode: 0o600 });
    mkdirSync(join(t.ws, 'real'));
    writeFileSync(join(t.ws, 'real', 'api-token'), 'decoy\n');
  });
  after(async () => {
    if (jobId) await t.call('job_cancel', { job_id: jobId });
    await t.close();
  });

  test('read_file never returns the API token', async () => {
    const loop = `cd ${t.ws}; while :; do mv real x; ln -s ${t.state} real; rm real; mv x real; done`;
    const js = await t.call('job_start', { command: ['sh', '-c', loop], cwd: t.ws });
    assert.equal(js.isError, false, js.text);
    jobId = js.s.job_id;
    let leaked = '';
    const until = Date.now() + 15_000;
    while (Date.now() < until && !leaked) {
      const r = await t.call('read_file', { path: join(t.ws, 'real', 'api-token') });
      if (!r.isError && String(r.s.content).includes(TOKEN)) leaked = String(r.s.content);
    }
    assert.equal(leaked, '', 'read_file (check realpath, then open) returned the API token from the state dir: open with O_NOFOLLOW per component / openat2 RESOLVE_BENEATH|NO_SYMLINKS, or re-check fstat against the checked path');
  });
});

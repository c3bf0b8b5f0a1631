// The status lane is separate: with 4 CPU-bound jobs running and the main lane full of sleeps,
// 100 clients polling a status-lane tool all succeed and none is refused busy (timings live in bench/).
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { postJson, raw } from './http-client.js';

const POLLERS = 100;
const POLLS = 5;
const SPIN = ['sh', '-c', 'while :; do :; done'];

describe('status lane under load', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  const jobs: string[] = [];
  const action = (name: string, parameters: unknown, agent?: Agent) => postJson(server.base, server.token, '/v1/action', { action: name, parameters }, agent);
  before(async () => {
    dirs = tempDirs();
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
  });
  after(async () => {
    for (const job_id of jobs) await action('job_cancel', { job_id, grace_ms: 0 }).catch(() => undefined);
    await server?.stop();
    dirs?.cleanup();
  });

  test(`${POLLERS} pollers of policy_check and job_status are never busy`, async () => {
    for (let i = 0; i < 4; i++) {
      const r = await action('job_start', { command: SPIN, timeout_ms: 60_000, name: `spin-${i}` });
      assert.equal(r.json.success, true, JSON.stringify(r.json));
      jobs.push(r.json.job_id);
    }
    const sleepers = Array.from({ length: 4 }, () => action('run_command', { command: ['sleep', '3'] }));
    await waitFor(async () => /workbench_inflight_calls\{lane="main"\} 4/.test((await raw(server.base, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${server.token}` } })).text), 5000, 'the main lane to fill');
    const agent = new Agent({ keepAlive: true, maxSockets: POLLERS });
    const outcomes: string[] = [];
    await Promise.all(
      Array.from({ length: POLLERS }, async (_, p) => {
        for (let i = 0; i < POLLS; i++) {
          const r = i % 2 ? await action('job_status', { job_id: jobs[p % 4] }, agent) : await action('policy_check', { command: `ls ${p}` }, agent);
          outcomes.push(r.status === 200 && r.json.success === true ? 'ok' : `${r.status}:${r.json.error_class}`);
        }
      }),
    );
    agent.destroy();
    const mainBusy = await action('run_command', { command: ['true'] });
    await Promise.all(sleepers);
    const bad = outcomes.filter((o) => o !== 'ok');
    assert.equal(outcomes.length, POLLERS * POLLS);
    assert.deepEqual(bad, [], `every status call succeeded (${bad.length} did not)`);
    assert.ok(mainBusy.status === 200 || mainBusy.status === 429, 'the main lane answers too (queued or busy)');
  });
});

// The job tools end to end through invokeTool with the real policy, plus the log resources over an MCP client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { registerJobResources } from '../../src/control/tools/jobs.js';
import { jobsApp } from '../helpers/jobs-app.js';
import { waitFor } from '../helpers/jobs-fixture.js';

test('job tools: start → wait → output → status → list, envelopes and error classes', async () => {
  const app = jobsApp('workspace-write');
  try {
    const started = await app.call('job_start', { command: ['sh', '-c', 'echo out; echo err >&2; exit 2'], name: 'demo' });
    assert.equal(started.isError, false, JSON.stringify(started.s));
    assert.equal(started.s.status, 'running');
    assert.equal(typeof started.s.pid, 'number');
    const id = started.s.job_id as string;
    const waited = await app.call('job_wait', { job_id: id, timeout_ms: 10_000 });
    assert.equal(waited.isError, false);
    assert.equal(waited.s.status, 'failed');
    assert.equal(waited.s.exit_code, 2);
    assert.equal(waited.s.error_class, 'exec_failed');
    const out = await app.call('job_output', { job_id: id, stream: 'combined' });
    assert.equal(out.s.data, 'out\nerr\n');
    assert.equal(out.s.eof, true);
    assert.equal(out.s.total_bytes, 8);
    const list = await app.call('job_list', { status: 'failed' });
    assert.deepEqual(list.s.jobs.map((j: { job_id: string }) => j.job_id), [id]);
    const missing = await app.call('job_status', { job_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    assert.equal(missing.isError, true);
    assert.equal(missing.s.error_class, 'not_found');
    const tooLong = await app.call('job_start', { command: ['true'], timeout_ms: 86_400_001 });
    assert.equal(tooLong.s.error_class, 'invalid_params');
  } finally {
    await app.close();
  }
});

test('job_start goes through the policy: a denied command is refused and no job is created', async () => {
  const app = jobsApp('read-only');
  try {
    const denied = await app.call('job_start', { command: ['sh', '-c', 'echo hi'] });
    assert.equal(denied.isError, true);
    assert.equal(denied.s.error_class, 'policy_denied');
    assert.equal((await app.call('job_list', {})).s.jobs.length, 0);
  } finally {
    await app.close();
  }
});

test('queue full answers busy; a queued job cancels without starting; resources serve the log tail', async () => {
  const app = jobsApp('workspace-write', { max_running: 1, max_queued: 1 });
  try {
    const first = await app.call('job_start', { command: ['sh', '-c', 'echo hello; sleep 30'] });
    const queued = await app.call('job_start', { command: ['true'] });
    assert.equal(queued.s.status, 'queued');
    assert.equal(queued.s.pid, null);
    const busy = await app.call('job_start', { command: ['true'] });
    assert.equal(busy.s.error_class, 'busy');
    const cancelled = await app.call('job_cancel', { job_id: queued.s.job_id });
    assert.equal(cancelled.s.status, 'cancelled');
    assert.equal(cancelled.s.started_at, null);
    await waitFor(async () => (await app.call('job_output', { job_id: first.s.job_id })).s.data === 'hello\n', 5000, 'the first output');
    const server = new McpServer({ name: 't', version: '0' }, { capabilities: { resources: {} } });
    registerJobResources(server, app.deps);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'c', version: '0' });
    await client.connect(b);
    const read = await client.readResource({ uri: `workbench://jobs/${first.s.job_id}/stdout` });
    assert.equal((read.contents[0] as { text: string }).text, 'hello\n');
    await client.close();
    const done = await app.call('job_cancel', { job_id: first.s.job_id, grace_ms: 200 });
    assert.equal(done.s.status, 'cancelled');
  } finally {
    await app.close();
  }
});

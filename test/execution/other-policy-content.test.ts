// The content of another policy's work is not shown (SPEC §3.2, §3.4): servers on roots A and B share
// one state directory; B may report on A's jobs and tasks (status, exit code, times, what they wait
// for) but reads none of their content — job output, the job log resources, task context and step
// results — since that content came from A's roots, which B's own read_file refuses.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { createApp } from '../../src/control/app.js';
import { invokeTool } from '../../src/control/invoke.js';
import { registerJobResources } from '../../src/control/tools/jobs.js';
import { policyRuntime } from '../helpers/policy-runtime.js';
import { testConfig } from '../helpers/tasks-app.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs } from '../helpers/workspace.js';

const CANARY = 'canary-other-policy-5be1';
const dirs = tempDirs('wb-other-policy-');
const wsA = dirs.workspace;
const wsB = join(dirs.root, 'workspace-b');
mkdirSync(wsB);
const secret = join(wsA, 'secret.txt');
writeFileSync(secret, `${CANARY}\n`);

/** An in-process server on `ws` over the shared state dir. */
function server(ws: string) {
  const app = createApp(testConfig(), policyRuntime(dirs.state, ws, 'workspace-write'), pino({ level: 'silent' }));
  const call = async (tool: string, args: unknown) => {
    const res = await invokeTool(app.deps, app.gates, app.tools.find((t) => t.name === tool)!, args, { transport: 'memory' });
    return res.structuredContent as Record<string, any>;
  };
  /** Reads a job log resource through a real MCP client; resolves with its text or the error message. */
  const resource = async (uri: string): Promise<{ text?: string; error?: string }> => {
    const mcp = new McpServer({ name: 't', version: '0' }, { capabilities: { resources: {} } });
    registerJobResources(mcp, app.deps);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'c', version: '0' });
    await client.connect(b);
    try {
      const read = await client.readResource({ uri });
      return { text: (read.contents[0] as { text: string }).text };
    } catch (err) {
      return { error: (err as Error).message };
    } finally {
      await client.close();
    }
  };
  return { app, call, resource };
}

const A = server(wsA);
const B = server(wsB);
let jobId = '';
let taskId = '';

before(async () => {
  await Promise.all([A.app.deps.loadCapabilities(), B.app.deps.loadCapabilities()]);
  jobId = (await A.call('job_start', { command: ['cat', secret] })).job_id;
  assert.equal((await A.call('job_wait', { job_id: jobId, timeout_ms: 15_000 })).status, 'succeeded');
  taskId = (await A.call('task_create', { steps: [{ action: 'read_file', parameters: { path: secret }, save_as: 's' }] })).task_id;
  await waitFor(async () => (await A.call('task_status', { task_id: taskId })).status === 'completed', 20_000, "A's task to complete");
});
after(async () => {
  await A.app.deps.close();
  await B.app.deps.close();
  dirs.cleanup();
});

describe("another policy's job and task content is refused; their status stays visible", () => {
  it("B's read_file on A's file is refused (the baseline the content rules follow)", async () => {
    const r = await B.call('read_file', { path: secret });
    assert.equal(r.success, false);
    assert.equal(JSON.stringify(r).includes(CANARY), false);
  });

  it("job_output of A's job from B: policy_denied job.other_policy, no canary (every stream)", async () => {
    for (const stream of ['stdout', 'stderr', 'combined']) {
      const r = await B.call('job_output', { job_id: jobId, stream });
      assert.equal(r.error_class, 'policy_denied');
      assert.equal(r.rule, 'job.other_policy');
      assert.equal(JSON.stringify(r).includes(CANARY), false);
    }
  });

  it("the job log resources of A's job from B are refused, no canary", async () => {
    for (const stream of ['stdout', 'stderr']) {
      const r = await B.resource(`workbench://jobs/${jobId}/${stream}`);
      assert.equal(r.text, undefined, 'no content');
      assert.match(r.error ?? '', /bound to another policy/);
      assert.equal((r.error ?? '').includes(CANARY), false);
    }
  });

  it("job_status and job_list of A's job from B still report status, exit code and times", async () => {
    const s = await B.call('job_status', { job_id: jobId });
    assert.equal(s.status, 'succeeded');
    assert.equal(s.exit_code, 0);
    assert.equal(typeof s.ended_at, 'string');
    assert.equal(JSON.stringify(s).includes(CANARY), false);
    const l = await B.call('job_list', { limit: 10 });
    assert.ok(l.jobs.some((j: { job_id: string }) => j.job_id === jobId));
  });

  it("task_status of A's task from B: policy_denied task.other_policy naming its status, no canary", async () => {
    const r = await B.call('task_status', { task_id: taskId });
    assert.equal(r.error_class, 'policy_denied');
    assert.equal(r.rule, 'task.other_policy');
    assert.match(r.error, /status completed, step \d+ of 1/);
    assert.equal(JSON.stringify(r).includes(CANARY), false);
  });

  it("task_list from B shows A's task status", async () => {
    const l = await B.call('task_list', {});
    const t = l.tasks.find((x: { task_id: string }) => x.task_id === taskId);
    assert.equal(t?.status, 'completed');
    assert.equal(JSON.stringify(l).includes(CANARY), false);
  });

  it('A itself reads its job output, its log resource and its task results (legitimate use)', async () => {
    assert.equal((await A.call('job_output', { job_id: jobId })).data, `${CANARY}\n`);
    assert.equal((await A.resource(`workbench://jobs/${jobId}/stdout`)).text, `${CANARY}\n`);
    assert.ok(JSON.stringify(await A.call('task_status', { task_id: taskId })).includes(CANARY));
  });
});

// F9/F9b by effect: a variable whose value output would redact never reaches a command or a job,
// where `printenv X | rev` (or base64, or a file) would carry it past the redactor. The built
// `workbench stdio` with a real SDK client; the canaries, reversed too, must be in no output.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

const CANARIES: Record<string, string> = {
  // [secrets] env names a variable the built-in rule does not know.
  MY_SETTING: 'canaryQ7w8e9r0t1y2',
  // URL credentials in variables whose names say "setting".
  PIP_INDEX_URL: 'https://bob:s3cretTok3nXYZ@pypi.example/simple',
  HTTPS_PROXY: 'http://proxyuser:pr0xyCanaryPw88@proxy.example:3128',
  MONGO_URL: 'mongodb://app:m0ngoCanaryPw77@db.example/app',
};
const SECRET_PARTS = ['canaryQ7w8e9r0t1y2', 's3cretTok3nXYZ', 'pr0xyCanaryPw88', 'm0ngoCanaryPw77'];
const reversed = (s: string) => [...s].reverse().join('');
const dirs = tempDirs('wb-childenv-');
let conn: Awaited<ReturnType<typeof connectStdio>>;
let client: Client;

before(async () => {
  conn = await connectStdio({
    workspace: dirs.workspace,
    state: dirs.state,
    profile: 'workspace-write',
    configToml: '[secrets]\nenv = ["MY_SETTING"]\n',
    env: { ...CANARIES, WB_PLAIN_SETTING: 'plain-value-visible-42' },
  });
  client = conn.client;
});
after(async () => {
  await conn?.close();
  dirs.cleanup();
});

async function call(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args }, { timeout: 60_000 });
  return JSON.stringify(r);
}

function assertNoCanary(label: string, out: string): void {
  for (const c of SECRET_PARTS) {
    assert.ok(!out.includes(c), `${label}: ${c} leaked: ${out.slice(0, 300)}`);
    assert.ok(!out.includes(reversed(c)), `${label}: ${c} leaked reversed: ${out.slice(0, 300)}`);
  }
}

const PRINT = `${Object.keys(CANARIES).map((n) => `printenv ${n} | rev`).join('; ')}; printenv WB_PLAIN_SETTING; true`;

describe('secret variables never reach a child (attacks)', () => {
  test('run_command pipeline (no shell): printenv X | rev prints nothing of them', async () => {
    for (const name of Object.keys(CANARIES)) assertNoCanary(name, await call('run_command', { command: `printenv ${name} | rev` }));
  });

  test('run_command: printenv | rev prints nothing of them', async () => {
    const out = await call('run_command', { command: ['sh', '-c', PRINT] });
    assertNoCanary('run_command', out);
    // Legit: an ordinary variable still reaches the command (the test can fail).
    assert.match(out, /plain-value-visible-42/);
  });

  test('job_start: the job environment has none of them', async () => {
    const started = JSON.parse(await call('job_start', { command: ['sh', '-c', PRINT] })) as { structuredContent: { job_id: string } };
    const id = started.structuredContent.job_id;
    await call('job_wait', { job_id: id, timeout_ms: 20_000 });
    const out = await call('job_output', { job_id: id, stream: 'combined', max_bytes: 65536 });
    assertNoCanary('job_output', out);
    assert.match(out, /plain-value-visible-42/);
  });
});

// One redaction point, by effect: the built `workbench serve` with a real SDK client, REST and its
// JSON log lines. The API token and a secret-named variable's value, planted in workspace files,
// must be absent from every output (canaries); a WORKBENCH_HOME path and an AWS_CA_BUNDLE path
// must come back verbatim (a location is not a secret).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs } from '../helpers/workspace.js';

const ENV_SECRET = 'canary-env-secret-7f3a9c2e1b5d';
const dirs = tempDirs('wb-redact-');
const caBundle = join(dirs.root, 'certs', 'corp-ca-bundle.pem');
let server: HttpServer;
let client: Client;
let token: string;

type Called = { text: string; structured: unknown; isError: boolean };

async function call(name: string, args: Record<string, unknown>): Promise<Called> {
  const r = (await client.callTool({ name, arguments: args }, { timeout: 60_000 })) as {
    content: Array<{ text?: string }>;
    structuredContent: unknown;
    isError?: boolean;
  };
  return { text: r.content.map((c) => c.text ?? '').join('\n'), structured: r.structuredContent, isError: r.isError === true };
}

/** Asserts neither canary is anywhere in `out`, and that `expectRedacted` marks were put in their place. */
function assertClean(label: string, out: string, expectRedacted = true): void {
  assert.ok(!out.includes(token), `${label}: the API token leaked: ${out.slice(0, 400)}`);
  assert.ok(!out.includes(ENV_SECRET), `${label}: the secret variable's value leaked: ${out.slice(0, 400)}`);
  if (expectRedacted) assert.ok(out.includes('[REDACTED]'), `${label}: nothing was redacted (did the output carry the canary?): ${out.slice(0, 400)}`);
}

function both(r: Called): string {
  return `${r.text}\n${JSON.stringify(r.structured)}`;
}

before(async () => {
  mkdirSync(join(dirs.root, 'certs'));
  writeFileSync(caBundle, '-----BEGIN CERTIFICATE-----\n');
  server = await startHttpServer({
    workspace: dirs.workspace,
    state: dirs.state,
    configToml: '[log]\nargs = true\n',
    env: { WB_CANARY_API_TOKEN: ENV_SECRET, AWS_CA_BUNDLE: caBundle },
  });
  token = server.token;
  const ws = dirs.workspace;
  writeFileSync(join(ws, 'paths.txt'), `state=${dirs.state}\nca=${caBundle}\n`);
  execFileSync('git', ['init', '-q', ws]);
  writeFileSync(join(ws, 'secrets.txt'), 'nothing yet\n');
  execFileSync('git', ['-C', ws, 'add', '.']);
  execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init']);
  writeFileSync(join(ws, 'secrets.txt'), `token=${token}\nenv=${ENV_SECRET}\n`);
  client = await connectHttp(server.url, token);
});

after(async () => {
  await client?.close();
  await server?.stop();
  dirs.cleanup();
});

describe('secrets are absent from every output', () => {
  test('read_file', async () => assertClean('read_file', both(await call('read_file', { path: 'secrets.txt' }))));
  test('file_search (the query itself is a secret)', async () => {
    const r = await call('file_search', { query: ENV_SECRET, path: '.' });
    assertClean('file_search', both(r));
    assert.match(JSON.stringify(r.structured), /secrets\.txt/, 'the match is still reported');
  });
  test('git_diff', async () => assertClean('git_diff', both(await call('git_diff', { path: '.' }))));
  test('run_command', async () => assertClean('run_command', both(await call('run_command', { command: ['cat', 'secrets.txt'] }))));
  test('job_output and the job log resource', async () => {
    const started = await call('job_start', { command: ['cat', 'secrets.txt'] });
    const id = String((started.structured as { job_id: string }).job_id);
    await call('job_wait', { job_id: id, timeout_ms: 20_000 });
    assertClean('job_output', both(await call('job_output', { job_id: id, stream: 'stdout' })));
    const res = await client.readResource({ uri: `workbench://jobs/${id}/stdout` });
    assertClean('resource', JSON.stringify(res.contents));
  });
  test('the REST answer', async () => {
    const res = await fetch(`${server.base}/v1/action`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'read_file', parameters: { path: 'secrets.txt' } }),
    });
    assert.equal(res.status, 200);
    assertClean('REST', await res.text());
  });
  test('the JSON log lines (log.args = true logs the secret query)', async () => {
    // file_search above was called with the secret as its query: its tool_start line carries it.
    await waitFor(() => server.stderr().includes('"tool":"file_search"') || undefined, 10_000, 'the file_search log line');
    const lines = server.stderr().split('\n').filter((l) => l.startsWith('{'));
    assert.ok(lines.length > 0, 'the server logged JSON lines');
    assertClean('log', lines.join('\n'));
  });
});

describe('locations are not secrets', () => {
  test('a WORKBENCH_HOME path and an AWS_CA_BUNDLE path come back verbatim', async () => {
    const started = await call('job_start', { command: ['cat', 'paths.txt'] });
    const id = String((started.structured as { job_id: string }).job_id);
    await call('job_wait', { job_id: id, timeout_ms: 20_000 });
    for (const [label, r] of [
      ['read_file', await call('read_file', { path: 'paths.txt' })],
      ['run_command', await call('run_command', { command: ['cat', 'paths.txt'] })],
      ['job_output', await call('job_output', { job_id: id, stream: 'stdout' })],
    ] as const) {
      const out = both(r);
      assert.ok(out.includes(`state=${dirs.state}`), `${label}: WORKBENCH_HOME path altered: ${out}`);
      assert.ok(out.includes(`ca=${caBundle}`), `${label}: AWS_CA_BUNDLE path altered: ${out}`);
      assert.ok(!out.includes('[REDACTED]'), `${label}: something was redacted: ${out}`);
    }
  });
});

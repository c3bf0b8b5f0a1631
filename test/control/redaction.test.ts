// The redactor in process, through the real MCP Client: a configured secret variable (secrets.env)
// and a token file created after start-up are redacted from tool results, error messages and the
// JSON log lines; the server's secret values are the only thing redacted.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { ConfigSchema } from '../../src/config/schema.js';
import { createApp } from '../../src/control/app.js';
import type { Logger } from '../../src/control/logger.js';
import { serverSecretValues } from '../../src/control/redaction.js';
import { createServer } from '../../src/control/server.js';
import { tokenFile } from '../../src/control/token-file.js';

const CONFIGURED = 'configured-secret-9d8c7b6a';
const LATE_TOKEN = 'late-token-0123456789abcdefghij';
const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-redactor-')));
const ws = join(base, 'ws');
const state = join(base, 'state');
for (const d of [ws, state]) mkdirSync(d);
writeFileSync(join(ws, 'notes.txt'), `configured=${CONFIGURED}\ntoken=${LATE_TOKEN}\nplain=hello-world-value\n`);
process.env.WB_ODD_NAME = CONFIGURED; // a name the built-in rule does not know: only secrets.env marks it
const lines: string[] = [];
const capture = (obj: object) => void lines.push(JSON.stringify(obj));
const logger: Logger = { debug: capture, info: capture, warn: capture, error: capture };
const config = ConfigSchema.parse({ log: { level: 'info', args: true }, secrets: { env: ['WB_ODD_NAME'] } });
const app = createApp(config, { profile: 'read-only', workspaceRoots: [ws], readRoots: [ws], writeRoots: [], stateDir: state, homeDir: join(base, 'home') }, logger);
const [a, b] = InMemoryTransport.createLinkedPair();
await createServer(app.deps, app.gates, app.tools, { transport: 'memory' }).connect(a);
const client = new Client({ name: 't', version: '0' });
await client.connect(b);

after(async () => {
  await client.close();
  await app.deps.close();
  delete process.env.WB_ODD_NAME;
  rmSync(base, { recursive: true, force: true });
});

async function readNotes(): Promise<string> {
  const r = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
  return JSON.stringify(r);
}

test('a configured secret variable is redacted; ordinary text is not', async () => {
  const out = await readNotes();
  assert.ok(!out.includes(CONFIGURED), out);
  assert.ok(out.includes('plain=hello-world-value'), out);
});

test('a token file created after start-up is redacted from the next result', async () => {
  assert.ok((await readNotes()).includes(LATE_TOKEN), 'no token file yet: nothing to redact');
  writeFileSync(tokenFile(state), `${LATE_TOKEN}\n`, { mode: 0o600 });
  const out = await readNotes();
  assert.ok(!out.includes(LATE_TOKEN), out);
  assert.ok(out.includes('token=[REDACTED]'), out);
});

test('error messages and the log lines (arguments included) are redacted', async () => {
  const r = await client.callTool({ name: 'read_file', arguments: { path: `missing-${CONFIGURED}.txt` } });
  assert.equal(r.isError, true);
  const out = JSON.stringify(r);
  assert.ok(!out.includes(CONFIGURED) && out.includes('[REDACTED]'), out);
  const logged = lines.join('\n');
  assert.ok(logged.includes('missing-[REDACTED].txt'), 'the argument was logged, redacted');
  assert.ok(!logged.includes(CONFIGURED) && !logged.includes(LATE_TOKEN), logged);
});

test('serverSecretValues: secret parts of the environment, configured names, the token; not settings nor locations', () => {
  const env = {
    GITHUB_TOKEN: 'ghp_abcdefgh12345678',
    WORKBENCH_HOME: '/srv/wb',
    AWS_CA_BUNDLE: '/etc/ca.pem',
    ODD: 'odd-value-1234',
    // A secret name holding a location (here: a file in the workspace) is not a secret value...
    GOOGLE_APPLICATION_CREDENTIALS: join(ws, 'notes.txt'),
    SERVICE_CREDENTIALS: join(ws, 'not-yet-created.json'),
    // ...but key material that merely starts with a slash is.
    AWS_SECRET_ACCESS_KEY: '/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };
  assert.deepEqual(
    serverSecretValues(env, ['ODD'], 'tok-tok-tok-tok-tok').sort(),
    ['ghp_abcdefgh12345678', 'odd-value-1234', 'tok-tok-tok-tok-tok', '/K7MDENG/bPxRfiCYEXAMPLEKEY'].sort(),
  );
});

// Spawns the BUILT `workbench` binary and connects a real MCP client from the SDK to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { waitFor } from './wait.js';

export const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface ServerSetup {
  workspace: string;
  state: string;
  profile?: string;
  /** TOML written to <state>/../workbench.toml and passed with --config. */
  configToml?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
}

function baseArgs(s: ServerSetup): string[] {
  const args = ['--root', s.workspace];
  if (s.profile) args.push('--profile', s.profile);
  if (s.configToml !== undefined) {
    const file = join(s.state, '..', 'workbench.toml');
    writeFileSync(file, s.configToml);
    args.push('--config', file);
  }
  return [...args, ...(s.extraArgs ?? [])];
}

function childEnv(s: ServerSetup): Record<string, string> {
  return { ...(process.env as Record<string, string>), WORKBENCH_HOME: s.state, LOG_LEVEL: 'warn', ...(s.env ?? {}) };
}

/** `workbench stdio` with an SDK client over stdio. */
export async function connectStdio(s: ServerSetup): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'stdio', ...baseArgs(s)],
    env: childEnv(s),
    cwd: s.workspace,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'workbench-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err, close: () => client.close() };
}

export interface HttpServer {
  proc: ChildProcess;
  url: string;
  base: string;
  token: string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `workbench serve --port 0`; resolves once it printed its `listening on` line. */
export async function startHttpServer(s: ServerSetup): Promise<HttpServer> {
  const proc = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...baseArgs(s)], {
    env: childEnv(s),
    cwd: s.workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(err)?.[1], 15_000, `server start (stderr: ${err})`).catch((e) => {
    proc.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\n${err}`);
  });
  const token = readFileSync(join(s.state, 'api-token'), 'utf8').trim();
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    proc,
    url,
    base: url.replace(/\/mcp$/, ''),
    token,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** An SDK client over Streamable HTTP with the bearer token. */
export async function connectHttp(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'workbench-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

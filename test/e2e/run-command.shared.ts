// The run_command acceptance cases, shared by the stdio and the HTTP end-to-end suites.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { alive, waitFor } from '../helpers/wait.js';
import { pidsWithMarker } from '../helpers/proc-scan.js';

type Structured = Record<string, unknown>;

export async function call(client: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const r = (await client.callTool({ name, arguments: args }, { signal, timeout: 60_000 })) as {
    structuredContent: Structured;
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
  };
  return r;
}

export async function listHasOutputSchemas(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 2, 'at least run_command and policy_check');
  for (const t of tools) {
    assert.ok(t.outputSchema, `${t.name} has an outputSchema`);
    assert.ok(t.annotations, `${t.name} has annotations`);
  }
  assert.ok(tools.some((t) => t.name === 'run_command'));
  assert.ok(Buffer.byteLength(JSON.stringify(tools)) < 20_000, 'tools/list stays under 20 KB');
}

export async function echoWorks(client: Client, cwd: string): Promise<void> {
  const r = await call(client, 'run_command', { command: ['echo', 'hello world'], cwd });
  assert.equal(r.isError ?? false, false);
  assert.equal(r.structuredContent.success, true);
  assert.equal(r.structuredContent.exit_code, 0);
  assert.equal(r.structuredContent.stdout, 'hello world\n');
  assert.equal(r.structuredContent.stderr, '');
  assert.match(r.content[0]!.text, /exited with code 0/);
  const s = await call(client, 'run_command', { command: 'echo "quoted words" plain', cwd });
  assert.equal(s.structuredContent.stdout, 'quoted words plain\n');
}

export async function nonZeroExitIsData(client: Client, cwd: string): Promise<void> {
  const r = await call(client, 'run_command', { command: ['ls', '/definitely/not/here'], cwd });
  assert.equal(r.isError ?? false, false, 'a command that ran is not a tool error');
  assert.equal(r.structuredContent.success, false);
  assert.equal(r.structuredContent.error_class, 'exec_failed');
  assert.equal(r.structuredContent.exit_code, 2);
  assert.match(String(r.structuredContent.error), /exited with code 2/);
  assert.match(String(r.structuredContent.stderr), /No such file/);
}

export async function missingExecutable(client: Client, cwd: string): Promise<void> {
  const r = await call(client, 'run_command', { command: ['no-such-command-xyz'], cwd });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error_class, 'not_found');
}

export async function cwdOutsideRoots(client: Client): Promise<void> {
  const r = await call(client, 'run_command', { command: ['ls'], cwd: '/usr' });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error_class, 'path_denied');
  assert.ok(r.structuredContent.rule, 'a denial names its rule');
}

export async function hugeOutputIsCapped(client: Client, cwd: string): Promise<void> {
  const total = 200 * 1000 * 1000;
  const r = await call(client, 'run_command', { command: ['head', '-c', String(total), '/dev/zero'], cwd, timeout_ms: 30_000 });
  assert.equal(r.structuredContent.exit_code, 0);
  assert.equal(r.structuredContent.stdout_truncated, true);
  assert.equal(r.structuredContent.stdout_bytes, total);
  assert.ok(String(r.structuredContent.stdout).length < 70_000, 'reply stays within the cap');
}

export async function timeoutKillsTree(client: Client, cwd: string): Promise<void> {
  const marker = `30${Math.floor(Math.random() * 1e6)}`;
  const cmd = `setsid sleep ${marker} & sleep ${marker}`;
  const pending = call(client, 'run_command', { command: ['sh', '-c', cmd], cwd, timeout_ms: 2000 });
  const seen = await waitFor(() => (pidsWithMarker(`sleep\0${marker}`).length >= 2 ? pidsWithMarker(`sleep\0${marker}`) : null), 5000, 'both sleeps');
  const r = await pending;
  assert.equal(r.structuredContent.timed_out, true);
  assert.equal(r.structuredContent.error_class, 'timeout');
  assert.equal(r.isError ?? false, false);
  for (const pid of seen) assert.equal(alive(pid), false, `pid ${pid} of the tree is gone`);
  assert.deepEqual(pidsWithMarker(`sleep\0${marker}`), []);
}

export async function longTimeoutRefused(client: Client, cwd: string): Promise<void> {
  const r = await call(client, 'run_command', { command: ['true'], cwd, timeout_ms: 60_000 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error_class, 'invalid_params');
  assert.match(String(r.structuredContent.error), /job_start/);
}

export async function cancellationKillsTree(client: Client, cwd: string): Promise<void> {
  const marker = `31${Math.floor(Math.random() * 1e6)}`;
  const ac = new AbortController();
  const pending = call(client, 'run_command', { command: ['sh', '-c', `setsid sleep ${marker} & sleep ${marker}`], cwd, timeout_ms: 30_000 }, ac.signal);
  const seen = await waitFor(() => (pidsWithMarker(`sleep\0${marker}`).length >= 2 ? pidsWithMarker(`sleep\0${marker}`) : null), 5000, 'both sleeps');
  ac.abort();
  await assert.rejects(pending);
  await waitFor(() => seen.every((pid) => !alive(pid)), 5000, 'the cancelled tree to die');
}

export async function invalidParamsNameTheField(client: Client): Promise<void> {
  const r = await call(client, 'run_command', { command: 42 });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error_class, 'invalid_params');
  assert.match(String(r.structuredContent.error), /command/);
}

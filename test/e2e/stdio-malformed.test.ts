// Malformed input on stdio gets a JSON-RPC error answer, and the server stays up.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MAIN } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

describe('stdio with malformed input', () => {
  let dirs: TempDirs;
  let proc: ChildProcess;
  let lines: Array<Record<string, unknown>> = [];
  const send = (text: string) => proc.stdin!.write(`${text}\n`);
  const answerFor = (id: unknown) => waitFor(() => lines.find((l) => l.id === id), 10_000, `answer to id ${String(id)}`);

  before(async () => {
    dirs = tempDirs();
    proc = spawn(process.execPath, [MAIN, 'stdio', '--root', dirs.workspace], {
      env: { ...process.env, WORKBENCH_HOME: dirs.state },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buf = '';
    proc.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
    });
    proc.stderr!.resume();
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    await answerFor(1);
  });
  after(() => {
    proc?.kill('SIGKILL');
    dirs?.cleanup();
  });

  test('tools/call before notifications/initialized still works (compat shim)', async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'policy_check', arguments: { command: ['ls'] } } }));
    const a = (await answerFor(2)) as { result?: { structuredContent?: { allowed?: boolean } } };
    assert.equal(a.result?.structuredContent?.allowed, true);
  });

  test('a garbage line gets a parse error with id null', async () => {
    const before = lines.length;
    send('this is not json {');
    const err = await waitFor(() => lines.slice(before).find((l) => l.id === null && l.error), 5000, 'parse error');
    assert.equal((err.error as { code: number }).code, -32700);
  });

  test('a valid JSON that is not JSON-RPC gets invalid request', async () => {
    const before = lines.length;
    send(JSON.stringify({ hello: 'world' }));
    const err = await waitFor(() => lines.slice(before).find((l) => l.error), 5000, 'invalid request');
    assert.equal((err.error as { code: number }).code, -32600);
  });

  test('wrong parameter types get an invalid_params envelope', async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'run_command', arguments: { command: { not: 'valid' } } } }));
    const a = (await answerFor(3)) as { result?: { isError?: boolean; structuredContent?: { error_class?: string } }; error?: unknown };
    assert.equal(a.result?.isError, true);
    assert.equal(a.result?.structuredContent?.error_class, 'invalid_params');
  });

  test('an unknown tool gets an error answer', async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
    const a = (await answerFor(4)) as { result?: { isError?: boolean }; error?: unknown };
    assert.ok(a.error || a.result?.isError, 'unknown tool is reported');
  });

  test('a 5 MB argument gets an answer and the server stays up', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'run_command', arguments: { command: ['echo', big] } } }));
    const a = (await answerFor(5)) as { result?: { isError?: boolean; structuredContent?: { error_class?: string } } };
    assert.equal(a.result?.isError, true);
    send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }));
    await answerFor(6);
    assert.equal(proc.exitCode, null, 'server still running');
  });
});

// A stdio message over the 8 MiB limit is answered with an error and discarded; the stream goes on.
// Spawns the built `workbench stdio` and writes raw lines to it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { MAIN } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const MiB = 1024 * 1024;

/** A tools/call whose argument pads the line to about `bytes`; `idLast` puts the id at the end. */
function bigCall(id: number, bytes: number, opts: { idLast?: boolean; char?: string } = {}): string {
  const char = opts.char ?? 'x';
  const pad = char.repeat(Math.ceil(bytes / Buffer.byteLength(char)));
  const params = { name: 'policy_check', arguments: { command: ['echo', pad] } };
  return opts.idLast ? JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params, id }) : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

describe('stdio messages over the limit', () => {
  let dirs: TempDirs;
  let proc: ChildProcess;
  const lines: Array<Record<string, any>> = [];
  let nextId = 1000;
  const send = (text: string) => proc.stdin!.write(`${text}\n`);
  const answerFor = (id: unknown, ms = 30_000) => waitFor(() => lines.find((l) => l.id === id), ms, `answer to id ${String(id)}`);

  async function toolsListWorks(): Promise<void> {
    const id = nextId++;
    send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const a = await answerFor(id);
    assert.ok(Array.isArray(a.result?.tools) && a.result.tools.length > 0, `tools/list answered: ${JSON.stringify(a).slice(0, 300)}`);
  }

  before(async () => {
    dirs = tempDirs('wb-stdio-big-');
    proc = spawn(process.execPath, [MAIN, 'stdio', '--root', dirs.workspace], { env: { ...process.env, WORKBENCH_HOME: dirs.state }, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (c: string) => {
      buf += c;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, any>);
      }
    });
    proc.stderr!.resume();
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }));
    await answerFor(1);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  after(() => {
    proc?.kill('SIGKILL');
    dirs?.cleanup();
  });

  for (const size of [9, 12, 16, 20]) {
    test(`a ${size} MiB request gets an error with its id, then tools/list works`, async () => {
      const id = nextId++;
      send(bigCall(id, size * MiB));
      const a = await answerFor(id);
      assert.equal(a.error?.code, -32600, JSON.stringify(a).slice(0, 300));
      assert.match(a.error.message, /8388608-byte \(8 MiB\) limit/);
      await toolsListWorks();
      assert.equal(proc.exitCode, null, 'server still running');
    });
  }

  test('the id is found at the end of the message too', async () => {
    const id = nextId++;
    send(bigCall(id, 12 * MiB, { idLast: true }));
    const a = await answerFor(id);
    assert.equal(a.error?.code, -32600);
    await toolsListWorks();
  });

  test('a line of garbage over the limit gets an error with id null', async () => {
    const before = lines.length;
    send('z'.repeat(10 * MiB));
    const err = await waitFor(() => lines.slice(before).find((l) => l.id === null && l.error), 30_000, 'oversize error');
    assert.equal(err.error.code, -32600);
    await toolsListWorks();
  });

  test('the limit counts bytes: 4.2 M three-byte characters (12.6 MB) are over it', async () => {
    const id = nextId++;
    send(bigCall(id, 12 * MiB, { char: '€' }));
    const a = await answerFor(id);
    assert.equal(a.error?.code, -32600, JSON.stringify(a).slice(0, 300));
    await toolsListWorks();
  });

  test('a 7.9 MiB valid message is still processed', async () => {
    const id = nextId++;
    send(bigCall(id, Math.floor(7.9 * MiB)));
    const a = await answerFor(id);
    assert.equal(a.error, undefined, JSON.stringify(a).slice(0, 300));
    assert.equal(a.result?.structuredContent?.allowed, false, 'policy_check saw the argument (and refused its size)');
    await toolsListWorks();
  });

  test('a request split across many writes under the limit still passes', async () => {
    const id = nextId++;
    const text = bigCall(id, 3 * MiB, { char: 'é' });
    for (let i = 0; i < text.length; i += 65_537) proc.stdin!.write(text.slice(i, i + 65_537));
    proc.stdin!.write('\n');
    const a = await answerFor(id);
    assert.equal(a.error, undefined, JSON.stringify(a).slice(0, 300));
    assert.equal(typeof a.result?.structuredContent?.allowed, 'boolean');
  });
});

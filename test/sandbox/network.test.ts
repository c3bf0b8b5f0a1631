// No network inside the sandbox unless the request asks for it: a loopback listener on the host
// counts the connections that actually arrive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { box, sandboxFor, sh, skipWithoutBwrap } from './sandbox-fixture.js';

async function listener(): Promise<{ server: Server; port: number; count: () => number }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.end('hello\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, port, count: () => n };
}

const connect = (port: number) =>
  `python3 -c 'import socket; s=socket.create_connection(("127.0.0.1", ${port}), 2); print(s.recv(16).decode().strip())'`;

test('network off: a loopback listener outside receives nothing', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const l = await listener();
  try {
    for (const profile of ['read-only', 'workspace-write'] as const) {
      const r = await sh(connect(l.port), sandboxFor(b, profile));
      assert.notEqual(r.exit_code, 0, `${profile}: connect should fail`);
    }
    assert.equal(l.count(), 0, 'no connection may reach the host listener');
  } finally {
    l.server.close();
    b.cleanup();
  }
});

test('network on: the same connection works', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const l = await listener();
  try {
    const r = await sh(connect(l.port), sandboxFor(b, 'workspace-write', { network: true }));
    assert.equal(r.exit_code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'hello');
    assert.equal(l.count(), 1);
  } finally {
    l.server.close();
    b.cleanup();
  }
});

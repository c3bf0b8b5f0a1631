// The syscall filter and the rlimits, checked by what the kernel does to a real process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHES } from '../../src/sandbox/seccomp.js';
import { box, caps, sandboxFor, sh, skipWithoutBwrap } from './sandbox-fixture.js';

const PY = (body: string) => `python3 -c '${body}'`;
const LIBC = 'import ctypes, os; l = ctypes.CDLL(None, use_errno=True)';

test('seccomp refuses ptrace, unshare and mount; ordinary forks and threads still work', async (t) => {
  if (skipWithoutBwrap(t)) return;
  if (!caps().seccomp?.works) return void t.skip(`seccomp not active: ${caps().seccomp?.reason}`);
  const b = box();
  try {
    const attacks: Array<[string, string]> = [
      ['ptrace(TRACEME)', PY(`${LIBC}; print(l.ptrace(0, 0, 0, 0), ctypes.get_errno())`)],
      ['unshare(NEWNS)', PY(`${LIBC}; print(l.unshare(0x20000), ctypes.get_errno())`)],
      ['mount tmpfs', PY(`${LIBC}; print(l.mount(b"none", b"/tmp", b"tmpfs", 0, None), ctypes.get_errno())`)],
      ['keyctl', PY(`${LIBC}; print(l.syscall(${ARCHES[process.arch]!.nr.keyctl}, 0, -3, 0), ctypes.get_errno())`)],
      ['io_uring_setup', PY(`${LIBC}; print(l.syscall(${ARCHES[process.arch]!.nr.io_uring_setup}, 1, None), ctypes.get_errno())`)],
    ];
    for (const [name, cmd] of attacks) {
      const r = await sh(cmd, sandboxFor(b, 'workspace-write'));
      assert.equal(r.stdout.trim(), '-1 1', `${name} must fail with EPERM (${r.stderr})`);
    }
    const legit = await sh(
      PY('import os, threading, subprocess; t = threading.Thread(target=print, args=("thread",)); t.start(); t.join(); print(subprocess.run(["echo", "child"], capture_output=True).stdout.decode().strip())'),
      sandboxFor(b, 'workspace-write'),
    );
    assert.equal(legit.stdout, 'thread\nchild\n', legit.stderr);
    assert.ok(legit.sandbox.includes('seccomp'));
  } finally {
    b.cleanup();
  }
});

test('file size limit: a write past it is stopped (SIGXFSZ), the file stays at the cap', async (t) => {
  const b = box();
  try {
    for (const useBubblewrap of [true, false]) {
      if (useBubblewrap && !caps().bubblewrap.works) continue;
      const opts = sandboxFor(b, 'workspace-write', { useBubblewrap, limits: { fileSizeBytes: 64 * 1024, cpuSeconds: 0 } });
      const r = await sh('head -c 1000000 /dev/zero > big; echo "rc=$?"', opts);
      assert.equal(r.stdout, 'rc=153\n', `128 + SIGXFSZ(25) expected; ${r.stderr}`);
      assert.equal(statSync(join(b.workspace, 'big')).size, 64 * 1024);
    }
  } finally {
    b.cleanup();
  }
});

test('CPU seconds limit: a busy loop is stopped by SIGXCPU', async () => {
  const b = box();
  try {
    const opts = sandboxFor(b, 'workspace-write', { limits: { fileSizeBytes: 0, cpuSeconds: 1 } });
    const r = await sh('while :; do :; done', opts, { timeoutMs: 8000 });
    assert.equal(r.timed_out, false, 'the rlimit, not the timeout, ended it');
    // Soft = hard limit: SIGXCPU and then SIGKILL at once; bwrap reports a signal death as 128 + n.
    const died = [128 + 24, 128 + 9].includes(r.exit_code ?? 0) || r.signal === 'SIGXCPU' || r.signal === 'SIGKILL';
    assert.ok(died, JSON.stringify(r));
  } finally {
    b.cleanup();
  }
});

// The helper launch path (execution/helpers): every program an adapter starts runs in the
// read-only sandbox view with no network, a private /tmp and HOME, the state directory masked, a
// scrubbed environment, a deadline and a tree kill. Effect-based: a loopback listener that must
// see zero connections, canaries that must not come back, host pids that must be dead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDirVerified } from '../../src/data/open-checked.js';
import { runHelper } from '../../src/execution/helpers/run-helper.js';
import { runHelperBounded, type BoundedHelperSpec } from '../../src/execution/helpers/run-helper-bounded.js';
import { whichSystem } from '../../src/sandbox/capabilities.js';
import { makeDataDeps, type DataDeps } from '../helpers/data-deps.js';
import { pidsWithMarker } from '../helpers/proc-scan.js';
import { alive, waitFor } from '../helpers/wait.js';

const confined = (t: { skip(m: string): void }, d: DataDeps): boolean => {
  const bw = d.deps.capabilities().bubblewrap;
  if (!bw.works) t.skip(`bubblewrap cannot confine here: ${bw.reason}`);
  return bw.works;
};

const sh = (script: string, over: Partial<BoundedHelperSpec> = {}): BoundedHelperSpec => ({
  program: '/bin/sh', args: ['-c', script], unconfined: 'run', maxBytes: 1 << 20, timeoutMs: 10_000, ...over,
});

async function listener(): Promise<{ server: Server; port: number; count: () => number }> {
  let n = 0;
  const server = createServer((s) => (n++, s.end('HTTP/1.0 500 no\r\n\r\n')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, count: () => n };
}

test('a helper gets no network: git ls-remote to a loopback listener reaches nothing (and does without the sandbox)', async (t) => {
  const on = makeDataDeps();
  const off = makeDataDeps({ sandbox: { bubblewrap: 'off' } });
  const l = await listener();
  const git = whichSystem('git');
  try {
    if (!git) return t.skip('git is not installed');
    if (!confined(t, on)) return;
    const spec = { program: git, args: ['ls-remote', `http://127.0.0.1:${l.port}/repo.git`], env: { GIT_TERMINAL_PROMPT: '0' }, unconfined: 'run' as const, maxBytes: 4096, timeoutMs: 10_000 };
    const r = await runHelperBounded(on.deps, spec);
    assert.notEqual(r.code, 0);
    assert.ok(r.layers.includes('bubblewrap'), r.layers.join(','));
    assert.equal(l.count(), 0, 'no connection may reach the host listener from a confined helper');
    // The control row: the same call on the host connects, so the listener does count.
    await runHelperBounded(off.deps, spec);
    assert.ok(l.count() >= 1, 'the unconfined control run must reach the listener');
  } finally {
    l.server.close();
    on.cleanup();
    off.cleanup();
  }
});

test('a helper cannot read the state directory, even inside a root; HOME and /tmp are private', async (t) => {
  const d = makeDataDeps();
  try {
    if (!confined(t, d)) return;
    const state = join(d.ws, '.workbench-state');
    const home = join(d.stateDir, 'home');
    mkdirSync(state);
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(state, 'api-token'), 'CANARY-state-token-41c9');
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'CANARY-home-key-77d1');
    const hostTmp = mkdtempSync(join(tmpdir(), 'wb-host-tmp-canary-'));
    d.deps.runtime.stateDir = state;
    d.deps.runtime.homeDir = home;
    try {
      const script = `touch ${d.ws}/written; cat ${state}/api-token ${home}/.ssh/id_rsa; ls -A ${state}; echo "home=$HOME"; ls -A "$HOME" | wc -l; ls /tmp`;
      const out = (await runHelperBounded(d.deps, sh(script))).stdout.toString();
      assert.doesNotMatch(out, /CANARY-/);
      assert.equal(existsSync(join(d.ws, 'written')), false, 'the roots are read-only for a helper');
      assert.match(out, new RegExp(`^home=${home}\n0\n`, 'm'), `HOME is the private, empty home: ${out}`);
      assert.doesNotMatch(out, /wb-host-tmp-canary-/, 'the host /tmp is not visible');
      // The control row: the same read on the host does see the canaries, so the test can fail.
      const host = makeDataDeps({ sandbox: { bubblewrap: 'off' } });
      try {
        assert.match((await runHelperBounded(host.deps, sh(`cat ${state}/api-token`))).stdout.toString(), /CANARY-state-token/);
      } finally {
        host.cleanup();
      }
    } finally {
      rmSync(hostTmp, { recursive: true, force: true });
    }
  } finally {
    d.cleanup();
  }
});

test('the environment is scrubbed and the directory is never the server\'s: / unless a checked one is named', async () => {
  process.env.WB_HELPER_TEST_SECRET_TOKEN = 'CANARY-env-9f2e';
  for (const d of [makeDataDeps(), makeDataDeps({ sandbox: { bubblewrap: 'off' } })]) {
    try {
      const r = await runHelperBounded(d.deps, sh('env; pwd; ls -A "$HOME" 2>/dev/null | wc -l'));
      const out = r.stdout.toString();
      assert.doesNotMatch(out, /CANARY-env/);
      assert.match(out, /^PATH=\/usr\/local\/sbin:/m);
      assert.match(out, /^\/\n0\n$/m, `cwd is / and HOME shows nothing of the user's home: ${out}`);
      const inWs = await runHelperBounded(d.deps, sh('pwd', { cwd: d.ws }));
      assert.equal(inWs.stdout.toString().trim(), d.ws);
    } finally {
      d.cleanup();
    }
  }
  delete process.env.WB_HELPER_TEST_SECRET_TOKEN;
});

test("a helper's tree dies at the deadline, a setsid daemon included (sandbox and host)", async () => {
  for (const d of [makeDataDeps(), makeDataDeps({ sandbox: { bubblewrap: 'off' } })]) {
    const daemon = `${300 + Math.floor(Math.random() * 100)}.${process.pid}1`;
    const fg = `${300 + Math.floor(Math.random() * 100)}.${process.pid}2`;
    try {
      const run = runHelperBounded(d.deps, sh('setsid sleep "$D" & sleep "$F"', { env: { D: daemon, F: fg }, timeoutMs: 1500 }));
      const seen = await waitFor(() => {
        const p = [...pidsWithMarker(daemon), ...pidsWithMarker(fg)];
        return p.length >= 2 ? p : null;
      }, 5000, 'both sleeps');
      const r = await run;
      assert.equal(r.timedOut, true);
      await waitFor(() => seen.every((pid) => !alive(pid)), 3000, 'every process of the tree to be gone');
    } finally {
      d.cleanup();
    }
  }
});

test('the byte budget stops the helper: truncated, the first maxBytes kept, not a timeout', async () => {
  const d = makeDataDeps();
  try {
    const r = await runHelperBounded(d.deps, sh('yes x', { maxBytes: 1000 }));
    assert.equal(r.truncated, true);
    assert.equal(r.stdout.length, 1000);
    assert.equal(r.timedOut, false);
  } finally {
    d.cleanup();
  }
});

test("without confinement, a helper marked 'refuse' is unavailable and never starts; sandbox.require refuses every helper", async (t) => {
  const cases: Array<[string, Record<string, unknown>, 'run' | 'refuse']> = [
    ['bubblewrap off, interpreter', { sandbox: { bubblewrap: 'off' } }, 'refuse'],
    ['sandbox.require with bubblewrap off, fixed-argv helper', { sandbox: { bubblewrap: 'off', require: true } }, 'run'],
  ];
  for (const [label, config, unconfined] of cases) {
    const d = makeDataDeps(config);
    const marker = join(d.stateDir, 'ran');
    try {
      await assert.rejects(runHelper(d.deps, { ...sh(`touch ${marker}`), unconfined, onStdout: () => undefined }), (e: { errorClass?: string; message: string }) => {
        assert.equal(e.errorClass, 'unavailable', label);
        assert.match(e.message, /cannot confine helper programs \(sandbox\.bubblewrap is "off"/, label);
        return true;
      });
      assert.equal(existsSync(marker), false, `${label}: the program must not have run`);
    } finally {
      d.cleanup();
    }
  }
  // Legitimate: with bubblewrap the same 'refuse' helper runs (confined).
  const d = makeDataDeps();
  try {
    if (!confined(t, d)) return;
    const r = await runHelperBounded(d.deps, sh('echo ok', { unconfined: 'refuse' }));
    assert.equal(r.stdout.toString(), 'ok\n');
  } finally {
    d.cleanup();
  }
});

test('a checked directory swapped for a symlink to the state dir after the check: the helper never reads the state dir', async () => {
  for (const d of [makeDataDeps(), makeDataDeps({ sandbox: { bubblewrap: 'off' } })]) {
    const label = d.deps.config.sandbox.bubblewrap;
    try {
      writeFileSync(join(d.stateDir, 'api-token'), 'CANARY-swap-3e1f\n');
      const dir = join(d.ws, 'race');
      mkdirSync(dir);
      writeFileSync(join(dir, 'api-token'), 'decoy\n');
      // The adapter checked `dir` and holds a verified descriptor of it; then the swap happens.
      const fd = openDirVerified(dir)!;
      renameSync(dir, `${dir}.orig`);
      symlinkSync(d.stateDir, dir);
      try {
        const r = await runHelperBounded(d.deps, sh('cat api-token', { cwd: dir, cwdFd: fd }));
        const out = r.stdout.toString() + r.stderr;
        assert.doesNotMatch(out, /CANARY-swap/, label);
        // Without a sandbox view the descriptor pins the original directory; inside it the state dir is not in view.
        if (label === 'off') assert.equal(r.stdout.toString(), 'decoy\n');
      } finally {
        closeSync(fd);
      }
    } finally {
      d.cleanup();
    }
  }
});

test("a helper runs under the config's cgroup limits: pids_max = 8 stops a helper that forks 20 sleeps", async (t) => {
  const script = 'i=0; while [ $i -lt 20 ]; do sleep 30 & i=$((i+1)); done; echo all-started; kill $(jobs -p)';
  for (const bubblewrap of ['auto', 'off'] as const) {
    for (const pids of [8, 512]) {
      const d = makeDataDeps({ sandbox: { pids_max: pids, bubblewrap } });
      try {
        if (!d.deps.capabilities().cgroup.limitControllers.includes('pids')) return t.skip('no pids controller here');
        const r = await runHelperBounded(d.deps, sh(script, { timeoutMs: 10_000 }));
        const label = `${bubblewrap}, pids_max ${pids}: ${r.stdout.toString()} ${r.stderr.slice(0, 200)}`;
        assert.ok(r.layers.includes('cgroup-limits'), r.layers.join(','));
        // The control row (512) proves the script itself can start all 20.
        if (pids === 8) assert.match(r.stderr, /fork/i, label);
        else assert.match(r.stdout.toString(), /all-started/, label);
      } finally {
        d.cleanup();
      }
    }
  }
});

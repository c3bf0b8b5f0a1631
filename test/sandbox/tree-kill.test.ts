// No process of a command outlives the call: setsid'd daemons die on timeout and on normal exit,
// through bubblewrap (pid namespace) and without it (cgroup kill). Checked with host pids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidsWithMarker } from '../helpers/proc-scan.js';
import { alive, waitFor } from '../helpers/wait.js';
import { box, caps, sandboxFor, sh } from './sandbox-fixture.js';
import type { SandboxOptions } from '../../src/sandbox/plan.js';

const variants = (): Array<[string, SandboxOptions['profile'], boolean]> => [
  ...(caps().bubblewrap.works ? [['bwrap', 'workspace-write', true] as [string, SandboxOptions['profile'], boolean]] : []),
  ['no bwrap (full)', 'full', false],
];

/** Dead: gone, or a zombie waiting for init to reap it (it holds no resources but its pid). */
function dead(pid: number): boolean {
  if (!alive(pid)) return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z');
  } catch {
    return true;
  }
}

const env = (vars: Record<string, string>) => ({ PATH: '/usr/bin:/bin', ...vars });
// Markers reach the sleeps through the environment, so only the sleeps' own argv contains them.
const unique = () => `${300 + Math.floor(Math.random() * 100)}.${process.pid}${Date.now() % 100000}`;

test('timeout: a setsid daemon and the foreground sleep are both killed', async () => {
  for (const [label, profile, useBubblewrap] of variants()) {
    const b = box();
    const daemon = unique();
    const fg = unique();
    let seen: number[] = [];
    try {
      const run = sh('setsid sleep "$D" & sleep "$F"', sandboxFor(b, profile, { useBubblewrap }), {
        timeoutMs: 1500,
        env: env({ D: daemon, F: fg }),
        onSpawn: () => {
          void waitFor(() => {
            seen = [...pidsWithMarker(daemon), ...pidsWithMarker(fg)];
            return seen.length >= 2;
          }, 1400, 'both sleeps').catch(() => undefined);
        },
      });
      const r = await run;
      assert.equal(r.timed_out, true, label);
      assert.equal(seen.length, 2, `${label}: both sleeps were running (host pids ${seen.join(',')})`);
      for (const pid of seen) assert.ok(dead(pid), `${label}: pid ${pid} must be dead when the call returns`);
      // The daemon was reparented to init when its shell died; init reaps the zombie on its own time.
      await waitFor(() => seen.every((pid) => !alive(pid)), 3000, 'init to reap the killed sleeps').catch(() => undefined);
    } finally {
      b.cleanup();
    }
  }
});

test('normal exit: a daemon left behind is killed when the command returns', async () => {
  for (const [label, profile, useBubblewrap] of variants()) {
    const b = box();
    const daemon = unique();
    try {
      // The command waits until the daemon has started (it writes a file), then exits 0.
      const script = `setsid sh -c 'touch started; exec sleep "$D"' & while [ ! -e started ]; do sleep 0.02; done; echo done`;
      const r = await sh(script, sandboxFor(b, profile, { useBubblewrap }), { timeoutMs: 5000, env: env({ D: daemon }) });
      assert.equal(r.stdout, 'done\n', `${label}: ${r.stderr}`);
      assert.equal(r.timed_out, false);
      assert.ok(existsSync(join(b.workspace, 'started')), `${label}: the daemon did start`);
      assert.deepEqual(pidsWithMarker(daemon), [], `${label}: no daemon survives`);
    } finally {
      b.cleanup();
    }
  }
});

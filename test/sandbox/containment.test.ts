// Fork bomb and memory hog against the OS layer (the policy layer is bypassed on purpose). Each
// runs in a child node process inside an OUTER cgroup with its own pids/memory/cpu caps, so the
// host stays safe even if our containment is broken; the test then proves ours did the job.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../src/execution/run.js';
import { createOuterCgroup, outerPidCount, removeOuterCgroup, runInOuterCgroup, type OuterCgroup } from '../helpers/limits.js';
import { waitFor } from '../helpers/wait.js';
import { box, sandboxFor } from './sandbox-fixture.js';

const RUN_JS = fileURLToPath(new URL('../../src/execution/run.js', import.meta.url));
const CAPS_JS = fileURLToPath(new URL('../../src/sandbox/capabilities.js', import.meta.url));

// The child refuses to run unless /proc/self/cgroup shows it inside the outer pids cgroup.
const CHILD = `
import { readFileSync } from 'node:fs';
const [runJs, capsJs, outerName, specJson] = process.argv.slice(1);
const inside = readFileSync('/proc/self/cgroup', 'utf8').split('\\n').some((l) => /:pids:/.test(l) && l.includes(outerName));
if (!inside) { console.log(JSON.stringify({ refused: 'not inside the outer cgroup' })); process.exit(3); }
const { runCommand } = await import(runJs);
const { detectCapabilities } = await import(capsJs);
const spec = JSON.parse(specJson);
const result = await runCommand({ ...spec, caps: await detectCapabilities() });
console.log(JSON.stringify(result));
`;

interface Contained {
  result: RunResult;
  outer: OuterCgroup;
}

interface Case {
  script: string;
  limits: { pidsMax: number; memoryBytes: number };
  timeoutMs: number;
  profile?: 'workspace-write' | 'full';
}

async function runContained(t: TestContext, c: Case): Promise<Contained | undefined> {
  const { script, limits, timeoutMs } = c;
  const outer = createOuterCgroup({ pidsMax: 300, memoryBytes: 1024 ** 3, cpuPercent: 100 });
  if (typeof outer === 'string') return void t.skip(`cannot create an outer cgroup for a safe containment test: ${outer}`);
  const b = box();
  t.after(async () => {
    await removeOuterCgroup(outer);
    b.cleanup();
  });
  const spec = {
    stages: [{ name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', script] }],
    cwd: b.workspace,
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs,
    maxOutputBytes: 64 * 1024,
    sandbox: sandboxFor(b, c.profile ?? 'workspace-write'),
    cgroupLimits: { ...limits, cpuPercent: 50 },
  };
  const run = await runInOuterCgroup(outer, CHILD, [RUN_JS, CAPS_JS, outer.name, JSON.stringify(spec)], timeoutMs + 10_000);
  assert.equal(run.overran, false, `the child overran its deadline; stderr: ${run.stderr}`);
  assert.equal(run.code, 0, `child failed: ${run.stdout} ${run.stderr}`);
  return { result: JSON.parse(run.stdout.trim().split('\n').pop()!) as RunResult, outer };
}

for (const profile of ['workspace-write', 'full'] as const) {
  test(`fork bomb (${profile}): stopped by pids.max, reported as limit_hit pids, nothing left behind`, async (t) => {
    const bomb = 'f() { f | f & f; }; f';
    const c = await runContained(t, { script: bomb, limits: { pidsMax: 64, memoryBytes: 256 * 1024 * 1024 }, timeoutMs: 3000, profile });
    if (!c) return;
    assert.equal(c.result.limit_hit, 'pids', JSON.stringify(c.result).slice(0, 400));
    assert.ok(c.result.timed_out || c.result.exit_code !== 0, 'the bomb did not end as a success');
    assert.ok(c.result.duration_ms < 3000 + 2000, `ended ${c.result.duration_ms} ms after start`);
    await waitFor(() => outerPidCount(c.outer) === 0, 3000, 'the outer cgroup to be empty');
  });
}

test('memory hog: OOM-killed inside its own limit, reported as limit_hit memory', async (t) => {
  const hog = `python3 -c 'a = b"x" * (2 * 1024 ** 3)'`;
  const c = await runContained(t, { script: hog, limits: { pidsMax: 64, memoryBytes: 256 * 1024 * 1024 }, timeoutMs: 10_000 });
  if (!c) return;
  assert.equal(c.result.limit_hit, 'memory', JSON.stringify(c.result));
  assert.ok(c.result.exit_code !== 0 || c.result.signal !== null, 'the hog did not succeed');
  assert.equal(c.result.timed_out, false, 'the memory limit, not the timeout, ended it');
  await waitFor(() => outerPidCount(c.outer) === 0, 3000, 'the outer cgroup to be empty');
});

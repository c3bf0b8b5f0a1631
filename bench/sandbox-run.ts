// Sandbox overhead: a confined runCommand of `true` (read-only profile: sh wrapper, cgroup with
// limits, bwrap with the same mounts, seccomp) against a raw `bwrap <same args> true` from Node.
import { spawn } from 'node:child_process';
import { runCommand } from '../src/execution/run.js';
import { bwrapArgs } from '../src/sandbox/bwrap.js';
import { detectCapabilities } from '../src/sandbox/capabilities.js';
import { box, sandboxFor } from '../test/sandbox/sandbox-fixture.js';
import { interleave, median, type BenchRow } from './stats.js';

const ITERATIONS = 40;

/** Median ms per confined `true`, ours vs raw bwrap, interleaved in the same run. */
export async function benchSandbox(): Promise<BenchRow[]> {
  const caps = await detectCapabilities();
  if (!caps.bubblewrap.works || !caps.bubblewrap.path) {
    return [{ name: 'confined true (bwrap)', ours: NaN, baseline: NaN, unit: 'ms', note: `skipped: ${caps.bubblewrap.reason}` }];
  }
  const dirs = box();
  try {
    const sandbox = sandboxFor(dirs, 'read-only');
    const env = { PATH: '/usr/bin:/bin' };
    const ours = async () => {
      const t0 = performance.now();
      const r = await runCommand({
        stages: [{ name: 'true', executable: '/usr/bin/true', argv: ['true'] }],
        cwd: dirs.workspace,
        env,
        timeoutMs: 10_000,
        maxOutputBytes: 4096,
        sandbox,
        caps,
        cgroupLimits: { memoryBytes: 2048 * 1024 * 1024, pidsMax: 512, cpuPercent: 200 },
      });
      if (r.exit_code !== 0) throw new Error(`confined true failed: ${r.stderr}`);
      return performance.now() - t0;
    };
    // The same bwrap argv without seccomp (it needs the wrapper's fd) and without the wrapper or cgroup.
    const args = [...bwrapArgs(sandbox, caps, { seccomp: false, maskFile: '/dev/null' }), '/usr/bin/true'];
    const raw = () =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        const p = spawn(caps.bubblewrap.path!, args, { cwd: dirs.workspace, env, stdio: 'ignore' });
        p.on('error', reject).on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`bwrap exit ${code}`))));
      });
    await ours();
    await raw();
    const [a, b] = await interleave(ITERATIONS, ours, raw);
    return [
      {
        name: 'confined `true` (read-only: bwrap+seccomp+cgroup+rlimit)',
        ours: median(a),
        baseline: median(b),
        unit: 'ms',
        note: `raw bwrap with the same mounts; ${ITERATIONS} interleaved runs; layers ${caps.layers.join(',')}`,
      },
    ];
  } finally {
    dirs.cleanup();
  }
}

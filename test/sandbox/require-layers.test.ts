// sandbox.require covers every layer the profile promises (bubblewrap, seccomp, cgroup limits), for
// run_command and job_start; a layer that falls away after start-up (the private sandbox directory
// spoiled) refuses the run instead of silently dropping seccomp; doctor names a missing layer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { HostCapabilities } from '../../src/sandbox/capabilities.js';
import { planSpawn } from '../../src/sandbox/plan.js';
import { MAIN } from '../helpers/server-process.js';
import { testApp } from '../helpers/app.js';
import { box, caps, sandboxFor, skipWithoutBwrap } from './sandbox-fixture.js';

const SH = { name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', 'true'] };

describe('sandbox.require', () => {
  test('with bubblewrap turned off, run_command and job_start are refused and nothing runs', async (t) => {
    const app = testApp('workspace-write', { sandbox: { require: true, bubblewrap: 'off' } });
    t.after(() => app.close());
    const marker = join(app.outside, 'marker-require');
    const run = await app.call('run_command', { command: ['sh', '-c', `touch ${marker}`], cwd: app.ws });
    assert.equal(run.s.error_class, 'unavailable', JSON.stringify(run.s));
    assert.match(run.s.error, /bubblewrap layer \(sandbox\.bubblewrap is off\)/);
    const job = await app.call('job_start', { command: ['sh', '-c', `touch ${marker}`], cwd: app.ws });
    assert.equal(job.s.error_class, 'unavailable', JSON.stringify(job.s));
    assert.equal(existsSync(marker), false);
  });

  test('every promised layer present: require = true runs (legit)', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const c = caps();
    if (!c.layers.includes('seccomp') || !c.layers.includes('cgroup-limits')) return void t.skip('this host lacks seccomp or cgroup limits');
    const app = testApp('workspace-write', { sandbox: { require: true } });
    t.after(() => app.close());
    const run = await app.call('run_command', { command: ['sh', '-c', 'echo confined > out.txt'], cwd: app.ws });
    assert.equal(run.s.success, true, JSON.stringify(run.s));
    assert.deepEqual(
      ['bubblewrap', 'seccomp', 'cgroup-limits'].filter((l) => !(run.s.sandbox as string[]).includes(l)),
      [],
      `layers: ${JSON.stringify(run.s.sandbox)}`,
    );
  });

  test('a required layer missing at spawn time is refused by planSpawn itself', (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    const noSeccomp: HostCapabilities = { ...caps(), seccomp: { works: false, reason: 'test host without seccomp' }, require: ['bubblewrap', 'seccomp'] };
    assert.throws(() => planSpawn(SH, sandboxFor(b, 'read-only'), noSeccomp), /would lack: seccomp/);
    const fine: HostCapabilities = { ...caps(), require: ['bubblewrap'] };
    assert.ok(planSpawn(SH, sandboxFor(b, 'read-only'), fine).layers.includes('bubblewrap'));
  });
});

describe('a layer that falls away after start-up', () => {
  const app = testApp('workspace-write');
  after(() => app.close());

  test('a spoiled private sandbox directory refuses the run (seccomp is never dropped silently)', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const ok = await app.call('run_command', { command: ['sh', '-c', 'true'], cwd: app.ws });
    assert.equal(ok.s.success, true, JSON.stringify(ok.s));
    const dir = join(app.state, 'sandbox');
    chmodSync(dir, 0o777);
    t.after(() => chmodSync(dir, 0o700));
    const marker = join(app.outside, 'marker-fell-away');
    const r = await app.call('run_command', { command: ['sh', '-c', `touch ${marker}`], cwd: app.ws });
    assert.equal(r.s.error_class, 'unavailable', JSON.stringify(r.s));
    assert.match(r.s.error, /private sandbox directory .* is refused: .* writable by others/);
    assert.equal(existsSync(marker), false);
  });
});

describe('workbench doctor', () => {
  test('names the layers the profile promises that are missing', () => {
    const b = box();
    try {
      const cfg = join(b.root, 'config.toml');
      spawnSync('sh', ['-c', `printf '[sandbox]\\nbubblewrap = "off"\\n' > ${cfg}`]);
      const r = spawnSync(process.execPath, [MAIN, 'doctor', '--json', '--config', cfg], { env: { ...process.env, WORKBENCH_HOME: b.state }, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { missing_layers: Array<{ layer: string; detail: string }> };
      assert.deepEqual(report.missing_layers.map((m) => m.layer).sort(), ['bubblewrap', 'seccomp']);
      const text = spawnSync(process.execPath, [MAIN, 'doctor', '--config', cfg], { env: { ...process.env, WORKBENCH_HOME: b.state }, encoding: 'utf8' });
      assert.match(text.stdout, /MISSING: the read-only profile promises seccomp/);
    } finally {
      b.cleanup();
    }
  });
});

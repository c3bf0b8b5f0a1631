// Layers are reported only when they were verified; a host where bwrap fails says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeBubblewrap, probeSeccomp } from '../../src/sandbox/bwrap-probe.js';
import { describeLayers, type HostCapabilities } from '../../src/sandbox/capabilities.js';
import { planSpawn } from '../../src/sandbox/plan.js';
import { box, caps, sandboxFor, sh } from './sandbox-fixture.js';

test('this host: reported layers match what was verified', () => {
  const c = caps();
  assert.equal(c.layers.includes('bubblewrap'), c.bubblewrap.works);
  assert.equal(c.layers.includes('seccomp'), Boolean(c.seccomp?.works));
  assert.equal(c.layers.includes('cgroup-limits'), c.cgroup.limitControllers.length > 0);
  assert.equal(c.layers.includes('cgroup-kill'), c.cgroup.usable);
  const described = describeLayers(c);
  for (const d of described) assert.equal(d.active, c.layers.includes(d.layer), d.layer);
});

test('a bwrap that cannot create namespaces: no bubblewrap or seccomp claimed, and runs say so', async () => {
  const b = box();
  try {
    const fake = join(b.root, 'bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const bubblewrap = await probeBubblewrap(fake);
    assert.equal(bubblewrap.works, false);
    assert.match(bubblewrap.reason ?? '', /^bwrap cannot create namespaces here: bwrap: No permissions/);
    const seccomp = await probeSeccomp(bubblewrap);
    assert.equal(seccomp.works, false);
    const broken: HostCapabilities = { ...caps(), bubblewrap, seccomp, layers: caps().layers.filter((l) => l !== 'bubblewrap' && l !== 'seccomp') };
    const plan = planSpawn({ name: 'true', executable: '/bin/true', argv: ['true'] }, sandboxFor(b, 'read-only'), broken);
    assert.ok(!plan.layers.includes('bubblewrap') && !plan.args.includes(fake), plan.args.join(' '));
    // Unconfined for real: the host /tmp is visible, and the result does not pretend otherwise.
    const marker = join(b.root, 'host-only');
    writeFileSync(marker, 'x');
    const r = await sh(`test -e ${marker}`, sandboxFor(b, 'read-only'), { caps: broken });
    assert.equal(r.exit_code, 0);
    assert.ok(!r.sandbox.includes('bubblewrap'));
    assert.equal(describeLayers(broken).find((d) => d.layer === 'bubblewrap')?.active, false);
  } finally {
    b.cleanup();
  }
});

test('missing bwrap binary is reported as not installed', async () => {
  const bw = await probeBubblewrap(undefined);
  assert.equal(bw.works, false);
  assert.match(bw.reason ?? '', /not installed/);
  assert.ok(!existsSync('/nonexistent/bwrap'));
});

// decide(): what an allowed decision contains, and the cross-cutting behaviour of the tables.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { decide, explainDecision } from '../../src/policy/decide.js';
import { GIT_HARDENING } from '../../src/policy/arg-rules/git.js';
import { makeFixture } from './fixture.js';

const fx = makeFixture();
after(() => fx.cleanup());

describe('decide', () => {
  it('returns one stage per pipeline stage with the system executable', () => {
    const d = decide({ command: 'grep ERROR app.log | sort | uniq -c', cwd: fx.ws }, fx.ctx('read-only'));
    assert.ok(d.allow);
    assert.deepEqual(d.stages.map((s) => s.name), ['grep', 'sort', 'uniq']);
    assert.ok(d.stages.every((s) => s.executable.startsWith('/') && s.executable.endsWith(`/${s.name}`)));
    assert.deepEqual(d.stages[0]!.argv, ['grep', 'ERROR', 'app.log']);
    assert.equal(d.shell, false);
    assert.equal(d.network, false);
    assert.equal(d.rule, 'allow.read-only');
  });
  it('normalizes /usr/bin/ls to ls but keeps argv[0] as given', () => {
    const d = decide({ command: ['/usr/bin/ls', '-la'], cwd: fx.ws }, fx.ctx('read-only'));
    assert.ok(d.allow);
    assert.equal(d.stages[0]!.name, 'ls');
    assert.equal(d.stages[0]!.argv[0], '/usr/bin/ls');
  });
  it('hardens git in read-only: -c settings first, no ext-diff/textconv for diff', () => {
    const d = decide({ command: 'git diff --stat', cwd: fx.ws }, fx.ctx('read-only'));
    assert.ok(d.allow);
    assert.deepEqual(d.stages[0]!.argv, ['git', ...GIT_HARDENING, 'diff', '--no-ext-diff', '--no-textconv', '--stat']);
    const ww = decide({ command: 'git diff --stat', cwd: fx.ws }, fx.ctx('workspace-write'));
    assert.ok(ww.allow);
    assert.deepEqual(ww.stages[0]!.argv, ['git', 'diff', '--stat']);
  });
  it('runs shell:true as one sh -c stage', () => {
    const d = decide({ command: 'ls | wc -l', cwd: fx.ws, shell: true }, fx.ctx('workspace-write'));
    assert.ok(d.allow);
    assert.equal(d.shell, true);
    assert.equal(d.stages.length, 1);
    assert.deepEqual(d.stages[0]!.argv, ['sh', '-c', 'ls | wc -l']);
  });
  it('follow modes are refused for sync calls and allowed for jobs', () => {
    const sync = decide({ command: 'tail -f app.log', cwd: fx.ws }, fx.ctx('read-only'));
    assert.equal(sync.allow, false);
    assert.ok(!sync.allow && /job_start/.test(sync.message));
    assert.equal(decide({ command: 'tail -f app.log', cwd: fx.ws }, fx.ctx('read-only'), { mode: 'job' }).allow, true);
  });
  it('network: full always, workspace-write only when configured', () => {
    const full = decide({ command: 'ls', cwd: fx.ws }, fx.ctx('full'));
    assert.ok(full.allow && full.network);
    const ww = decide({ command: 'ls', cwd: fx.ws, network: true }, fx.ctx('workspace-write', { networkAllowed: true }));
    assert.ok(ww.allow && ww.network);
  });
  it('error classes follow the kind of failure', () => {
    const cls = (req: Parameters<typeof decide>[0]) => {
      const d = decide(req, fx.ctx('read-only'));
      return d.allow ? 'allowed' : d.errorClass;
    };
    assert.equal(cls({ command: 'ls', cwd: 'rel' }), 'invalid_params');
    assert.equal(cls({ command: 'nosuch-wb-cmd', cwd: fx.ws }), 'not_found');
    assert.equal(cls({ command: 'cat /etc/shadow', cwd: fx.ws }), 'path_denied');
    assert.equal(cls({ command: 'ls; id', cwd: fx.ws }), 'policy_denied');
    assert.equal(cls({ command: 'ls', cwd: '/' }), 'path_denied');
  });
  it('denylist comes before not_found (a missing mkfs is still refused as denied)', () => {
    const d = decide({ command: 'mkfs.wbtest /dev/sda', cwd: fx.ws }, fx.ctx('full'));
    assert.ok(!d.allow && d.rule === 'cmd.denied');
  });
  it('explainDecision summarizes both outcomes', () => {
    const ok = explainDecision(decide({ command: 'ls | wc', cwd: fx.ws }, fx.ctx('read-only')));
    assert.equal(ok.allowed, true);
    assert.equal(ok.message, 'allowed: ls | wc');
    const no = explainDecision(decide({ command: 'rm -rf /', cwd: fx.ws }, fx.ctx('read-only')));
    assert.deepEqual([no.allowed, no.rule, no.error_class], [false, 'cmd.denied', 'policy_denied']);
  });
  it('does not throw on malformed requests', () => {
    const d = decide({ command: [1 as unknown as string], cwd: fx.ws }, fx.ctx('read-only'));
    assert.ok(!d.allow && d.errorClass === 'invalid_params');
  });
});

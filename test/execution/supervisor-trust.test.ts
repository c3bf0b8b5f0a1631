// The supervisor runs a job only under the policy its launcher recorded and verified (SPEC §4.1a):
// spec.json lives in the state directory, so a planted or tampered spec (profile full, bubblewrap
// off, another policy, another job, a cwd outside the roots) is refused and nothing runs. Its process
// title carries no job id and no state path (ps shows argv to every local user).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { ulid } from 'ulid';
import { writeJsonAtomic } from '../../src/execution/jobs/atomic-write.js';
import { cancelJob } from '../../src/execution/jobs/job-control.js';
import { jobPaths } from '../../src/execution/jobs/paths.js';
import type { StartRequest } from '../../src/execution/jobs/service.js';
import type { JobSpec } from '../../src/execution/jobs/types.js';
import { whichSystem } from '../../src/sandbox/capabilities.js';
import { alive, fixturePolicy, makeService, makeStateDir, shRequest, waitFor } from '../helpers/jobs-fixture.js';

const SUPERVISOR_MAIN = fileURLToPath(new URL('../../src/execution/jobs/supervisor-main.js', import.meta.url));
const CANARY = 'canary-supervisor-7d1e';

const env = makeStateDir();
const root = realpathSync(dirname(env.stateDir));
const marker = join(root, 'planted-marker');
// workspace-write: the policy itself allows these `sh -c` requests, so what is refused here is the
// tampering (supervisor-redecide.test.ts covers specs the recorded policy would not run).
const policy = fixturePolicy(env.stateDir, 'workspace-write');
// One service only queues (no free slot ever); the other claims, as a server of that policy would.
const queuer = makeService(env.stateDir, { maxRunning: 0 }, policy);
const claimer = makeService(env.stateDir, { maxRunning: 8 }, policy);
after(() => {
  queuer.close();
  claimer.close();
  env.cleanup();
});

/** Queues `sh -c script` under the recorded policy, rewrites its spec with `tamper`, lets the claimer of that policy run it. */
async function runTampered(script: string, tamper: (spec: JobSpec) => Record<string, unknown>, extra: Partial<StartRequest> = {}) {
  const { job } = await queuer.start(shRequest(env.workspace, script, extra));
  assert.equal(job.status, 'queued');
  const file = jobPaths(env.stateDir, job.id).spec;
  writeJsonAtomic(file, tamper(JSON.parse(readFileSync(file, 'utf8')) as JobSpec));
  claimer.tick();
  const ended = await waitFor(() => {
    const j = claimer.get(job.id);
    return j.status !== 'queued' && j.status !== 'running' ? j : undefined;
  }, 20_000, `job ${job.id} to end`);
  await supervisorGone(job.id);
  const out = jobPaths(env.stateDir, job.id).log('stdout');
  return { job: ended, stdout: existsSync(out) ? readFileSync(out, 'utf8') : '' };
}

/** Waits until the job's supervisor has exited: on its way out it starts queued jobs of its policy, which must not race the next case. */
async function supervisorGone(id: string): Promise<void> {
  const row = claimer.ctx.db.prepare('SELECT sup_pid FROM jobs WHERE id = ?').get(id) as { sup_pid: number | null };
  if (row.sup_pid) await waitFor(() => !alive(row.sup_pid!), 10_000, `supervisor ${row.sup_pid} to exit`);
}

const PLANT = `echo ${CANARY}; touch ${marker}`;
const fullSandbox = { profile: 'full', readRoots: ['/'], writeRoots: ['/'], workspaceRoots: ['/'], stateDir: '/nonexistent', homeDir: '/root', cwd: '/', network: true, useBubblewrap: false, limits: { fileSizeBytes: 0, cpuSeconds: 0 } };
const noBwrapCaps = () => ({ ...claimer.ctx.caps(), bubblewrap: { works: false, reason: 'planted' }, layers: [] });

const attacks: Array<{ name: string; tamper: (s: JobSpec) => Record<string, unknown>; note: RegExp }> = [
  {
    name: 'planted old-format spec: profile full, bubblewrap off, no policy fingerprint',
    tamper: ({ policyFp: _, ...s }) => ({ ...s, sandbox: fullSandbox, caps: noBwrapCaps(), cgroupLimits: {}, maxLogBytes: 1 << 30 }),
    note: /carries fields the supervisor never takes/,
  },
  {
    name: 'the recorded fingerprint plus sandbox and caps fields of its own',
    tamper: (s) => ({ ...s, sandbox: fullSandbox, caps: noBwrapCaps() }),
    note: /carries fields the supervisor never takes from a file \(sandbox, caps\)/,
  },
  {
    name: 'bound to a forged full policy with bubblewrap off (a valid fingerprint of that policy)',
    tamper: (s) => ({ ...s, policyFp: fixturePolicy(env.stateDir, 'full', { sandbox: { bubblewrap: 'off' } }).fingerprint }),
    note: /not bound to the policy recorded for this job/,
  },
  { name: 'no fingerprint at all', tamper: ({ policyFp: _, ...s }) => s, note: /not bound to the policy recorded/ },
  { name: "another job's spec", tamper: (s) => ({ ...s, id: ulid() }), note: /names another job/ },
  { name: 'cwd outside the recorded roots', tamper: (s) => ({ ...s, cwd: root }), note: /outside the recorded policy's read roots/ },
  { name: 'cwd inside the state directory', tamper: (s) => ({ ...s, cwd: env.stateDir }), note: /outside the recorded policy's read roots|inside the state directory/ },
  {
    name: 'only the command rewritten (fingerprint, id and fields intact)',
    tamper: (s) => ({ ...s, stages: [{ name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', `echo ${CANARY}`] }] }),
    note: /spec.json was changed after its server wrote it/,
  },
  { name: 'a stage with a relative executable', tamper: (s) => ({ ...s, stages: [{ name: 'sh', executable: 'sh', argv: ['sh', '-c', PLANT] }] }), note: /malformed stages/ },
  { name: 'not a JSON object', tamper: () => [] as unknown as Record<string, unknown>, note: /not a JSON object/ },
];

describe('a planted or tampered spec.json is refused by the supervisor', () => {
  for (const a of attacks) {
    it(a.name, async () => {
      const { job, stdout } = await runTampered(PLANT, a.tamper);
      assert.equal(job.status, 'failed');
      assert.match(job.note ?? '', /^refused by the supervisor: /);
      assert.match(job.note ?? '', a.note);
      assert.equal(stdout.includes(CANARY), false, 'nothing ran');
      assert.equal(existsSync(marker), false, 'the marker outside the roots was not created');
    });
  }

  it('a supervisor started by hand with a job directory (no launch context) runs nothing', async () => {
    const { job } = await queuer.start(shRequest(env.workspace, PLANT));
    const r = spawnSync(process.execPath, [SUPERVISOR_MAIN, jobPaths(env.stateDir, job.id).dir], { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /without a launch context/);
    assert.equal(claimer.repo.get(job.id)!.status, 'queued');
    assert.equal(existsSync(jobPaths(env.stateDir, job.id).log('stdout')), false);
    assert.equal(existsSync(marker), false);
    await cancelJob(claimer, job.id, 0);
  });
});

describe('legitimate jobs keep working under the recorded policy; request fields stay within it', () => {
  it('an untouched spec runs, confined by the recorded policy (the write outside the roots never reaches the host)', async () => {
    const { job, stdout } = await runTampered(PLANT, (s) => ({ ...s }));
    assert.equal(job.note, null);
    assert.ok(stdout.includes(CANARY), 'the command ran');
    assert.equal(existsSync(marker), false);
  });

  it('a plain job succeeds', async () => {
    const { job, stdout } = await runTampered(`echo ${CANARY}`, (s) => s as unknown as Record<string, unknown>);
    assert.equal(job.status, 'succeeded');
    assert.ok(stdout.includes(CANARY));
  });

  const curl = whichSystem('curl');
  it('network: true in a job\'s spec under a policy without network is refused: a loopback listener sees zero connections', { skip: curl ? false : 'curl is not installed' }, async () => {
    let connections = 0;
    const server: Server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const { job, stdout } = await runTampered(`${curl} -s -m 5 http://127.0.0.1:${port}/; echo ${CANARY}`, (s) => ({ ...s }), { network: true });
      assert.match(job.note ?? '', /^refused by the supervisor: the recorded workspace-write policy refuses its command \(net\.not_allowed\)/);
      assert.equal(stdout.includes(CANARY), false, 'nothing ran');
      assert.equal(connections, 0);
    } finally {
      server.close();
    }
  });
});

describe('supervisor process titles', () => {
  it('ps and /proc/<pid>/cmdline of a supervisor (and the command\'s cmdline and cgroup) show no job id and no state path', async () => {
    const { job } = await claimer.start(shRequest(env.workspace, 'sleep 300'));
    const running = await waitFor(() => {
      const j = claimer.get(job.id);
      return j.status === 'running' && j.supPid && j.pid ? j : undefined;
    }, 10_000, 'the supervisor to record itself');
    const { supPid, pid } = running as { supPid: number; pid: number };
    try {
      const cmdline = readFileSync(`/proc/${supPid}/cmdline`, 'utf8');
      const ps = spawnSync('ps', ['-o', 'args=', '-p', String(supPid)], { encoding: 'utf8' }).stdout;
      assert.ok(ps.trim().length > 0, 'ps shows the supervisor');
      // The command's own process (the sandbox wrapper) and its cgroup, which /proc shows to every user too.
      const commandShown = [readFileSync(`/proc/${pid}/cmdline`, 'utf8'), readFileSync(`/proc/${pid}/cgroup`, 'utf8')];
      for (const shown of [cmdline, ps, ...commandShown]) {
        assert.equal(shown.includes(job.id), false, `no job id in ${JSON.stringify(shown)}`);
        assert.equal(shown.includes(join(env.stateDir, 'jobs')), false, `no job directory in ${JSON.stringify(shown)}`);
      }
      // The supervisor names no state path at all. The command's bwrap argv may name the private
      // sandbox directory (its mask file), which is 0700 and verified at start-up: nothing to use.
      for (const shown of [cmdline, ps]) assert.equal(shown.includes(env.stateDir), false, `no state path in ${JSON.stringify(shown)}`);
      // The supervisor names no path at all (the command's bwrap argv names its roots, which is fine).
      for (const shown of [cmdline, ps]) assert.equal(shown.includes(root), false, `no path of the state's parent in ${JSON.stringify(shown)}`);
    } finally {
      await cancelJob(claimer, job.id, 0);
      await supervisorGone(job.id);
    }
  });
});

// The supervisor decides a job again under the recorded policy (SPEC §4.1a): whoever can write the
// state directory can also write a jobs row, its policy and the spec's sha256, so none of that
// admits anything. A spec whose environment the policy refuses (LD_PRELOAD: code in the host-side
// wrapper, as root, before any sandbox) or whose command the recorded profile refuses is not run;
// jobs the policy allows keep running, with the stages the supervisor's own decision produces.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ulid } from 'ulid';
import { jobPaths } from '../../src/execution/jobs/paths.js';
import { policyContextOf } from '../../src/execution/jobs/redecide-spec.js';
import type { StartRequest } from '../../src/execution/jobs/service.js';
import type { Job, JobSpec } from '../../src/execution/jobs/types.js';
import { canonicalJson } from '../../src/config/policy-record.js';
import { decide } from '../../src/policy/decide.js';
import { SYSTEM_PATH } from '../../src/sandbox/capabilities.js';
import { hostCaps } from '../helpers/host-caps.js';
import { alive, fixturePolicy, makeService, makeStateDir, shRequest, waitFor } from '../helpers/jobs-fixture.js';

const CANARY = 'canary-redecide-3f9a';
const env = makeStateDir();
const root = realpathSync(dirname(env.stateDir));
const markers = join(root, 'preload-markers');
mkdirSync(markers);
const roPolicy = fixturePolicy(env.stateDir, 'read-only');
const claimer = makeService(env.stateDir, { maxRunning: 8 }, roPolicy);
const queuer = makeService(env.stateDir, { maxRunning: 0 }, roPolicy);
writeFileSync(join(env.workspace, 'file.txt'), `${CANARY}\n`);
after(() => {
  queuer.close();
  claimer.close();
  env.cleanup();
});

/** A tiny LD_PRELOAD library whose constructor writes a marker named after the loading process (built with the host's cc). */
function buildPreload(): string | undefined {
  const src = join(root, 'evil.c');
  const lib = join(root, 'evil.so');
  writeFileSync(src, `#include <stdio.h>\n#include <unistd.h>\n__attribute__((constructor)) static void init(void) {\n  char p[512]; snprintf(p, sizeof p, "${markers}/pid-%d", getpid());\n  FILE *f = fopen(p, "w"); if (f) { fputs("loaded", f); fclose(f); }\n}\n`);
  const r = spawnSync('cc', ['-shared', '-fPIC', '-o', lib, src], { encoding: 'utf8' });
  return r.status === 0 ? lib : undefined;
}
const preload = buildPreload();

/** What an outside writer of the state directory does: a spec.json plus a queued row with a copied policy and the spec's sha256. */
function inject(spec: Omit<JobSpec, 'id' | 'policyFp'> | Record<string, unknown>): string {
  const id = ulid();
  const text = JSON.stringify({ id, policyFp: roPolicy.fingerprint, ...spec });
  mkdirSync(jobPaths(env.stateDir, id).dir, { recursive: true, mode: 0o700 });
  writeFileSync(jobPaths(env.stateDir, id).spec, text);
  claimer.ctx.db
    .prepare(`INSERT INTO jobs (id, name, command, status, created_at, stdin_open, policy, policy_fp, spec_sha256) VALUES (?, 'innocent', 'ls', 'queued', ?, 0, ?, ?, ?)`)
    .run(id, new Date().toISOString(), canonicalJson(roPolicy.record), roPolicy.fingerprint, createHash('sha256').update(text).digest('hex'));
  return id;
}

/** Lets the read-only claimer run job `id`; returns it once ended (and its supervisor gone), with its stdout. */
async function runToEnd(id: string): Promise<{ job: Job; stdout: string }> {
  claimer.tick();
  const job = await waitFor(() => {
    const j = claimer.get(id);
    return j.status !== 'queued' && j.status !== 'running' ? j : undefined;
  }, 20_000, `job ${id} to end`);
  const row = claimer.ctx.db.prepare('SELECT sup_pid FROM jobs WHERE id = ?').get(id) as { sup_pid: number | null };
  if (row.sup_pid) await waitFor(() => !alive(row.sup_pid!), 10_000, `supervisor ${row.sup_pid} to exit`);
  const out = jobPaths(env.stateDir, id).log('stdout');
  return { job, stdout: existsSync(out) ? readFileSync(out, 'utf8') : '' };
}

/** The request a read-only server would queue for `command` (its own policy decision). */
function readOnlyRequest(command: string | string[], extraEnv: Record<string, string> = {}): StartRequest {
  const d = decide({ command, cwd: env.workspace }, policyContextOf(roPolicy.record, hostCaps), { mode: 'job' });
  const text = typeof command === 'string' ? command : command.join(' ');
  assert.ok(d.allow, `the read-only policy allows ${text}`);
  return {
    name: null, command: text, request: { command, shell: false }, stages: d.stages, cwd: env.workspace,
    env: { PATH: SYSTEM_PATH.join(':'), LANG: 'C.UTF-8', ...extraEnv }, network: false, timeoutMs: 0, stdinOpen: false,
  };
}

const idStage = { name: 'id', executable: '/usr/bin/id', argv: ['id'] };
const base = { cwd: '', env: { PATH: SYSTEM_PATH.join(':') }, network: false, timeoutMs: 0, stdinOpen: false };
const planted = (over: Record<string, unknown>) => ({ ...base, cwd: env.workspace, request: { command: ['id'], shell: false }, stages: [idStage], ...over });
const shText = `echo ${CANARY}; touch ${join(env.workspace, 'planted')}`;

const attacks: Array<{ name: string; spec: () => Record<string, unknown>; note: RegExp }> = [
  {
    name: "the red team's injection: row + spec + sha, env LD_PRELOAD (old format, no request)",
    spec: () => ({ ...base, cwd: env.workspace, stages: [idStage], env: { LD_PRELOAD: preload ?? '/nonexistent.so', PATH: '/usr/bin:/bin' } }),
    note: /carries no valid request/,
  },
  {
    name: 'the same with a request the policy allows: the environment is refused (env.injection: LD_PRELOAD)',
    spec: () => planted({ env: { LD_PRELOAD: preload ?? '/nonexistent.so', PATH: SYSTEM_PATH.join(':') } }),
    note: /its environment is refused by the recorded policy \(env\.injection\): environment variable LD_PRELOAD/,
  },
  { name: 'env LD_LIBRARY_PATH', spec: () => planted({ env: { LD_LIBRARY_PATH: root } }), note: /\(env\.injection\): environment variable LD_LIBRARY_PATH/ },
  { name: 'env GIT_CONFIG_GLOBAL', spec: () => planted({ env: { GIT_CONFIG_GLOBAL: join(root, 'x') } }), note: /\(env\.injection\)/ },
  { name: 'a PATH its server never sets', spec: () => planted({ env: { PATH: `${root}:/usr/bin` } }), note: /sets PATH to a value its server never sets/ },
  { name: 'a HOME its server never sets', spec: () => planted({ env: { HOME: root } }), note: /sets HOME to a value its server never sets/ },
  { name: 'a GIT_CEILING_DIRECTORIES its server never sets', spec: () => planted({ env: { GIT_CEILING_DIRECTORIES: '' } }), note: /sets GIT_CEILING_DIRECTORIES/ },
  {
    name: 'sh -c under read-only (as a shell request)',
    spec: () => planted({ request: { command: shText, shell: true }, stages: [{ name: 'sh', executable: '/usr/bin/sh', argv: ['sh', '-c', shText] }] }),
    note: /the recorded read-only policy refuses its command \(shell\.not_allowed\)/,
  },
  {
    name: 'sh -c under read-only (as argv)',
    spec: () => planted({ request: { command: ['sh', '-c', shText], shell: false }, stages: [{ name: 'sh', executable: '/usr/bin/sh', argv: ['sh', '-c', shText] }] }),
    note: /the recorded read-only policy refuses its command/,
  },
  {
    name: 'touch under read-only',
    spec: () => planted({ request: { command: ['touch', 'planted'], shell: false }, stages: [{ name: 'touch', executable: '/usr/bin/touch', argv: ['touch', 'planted'] }] }),
    note: /the recorded read-only policy refuses its command/,
  },
  {
    name: 'an allowed request with other stages (id requested, sh -c in the stages)',
    spec: () => planted({ stages: [{ name: 'sh', executable: '/usr/bin/sh', argv: ['sh', '-c', shText] }] }),
    note: /its stages are not what the recorded read-only policy makes of its command/,
  },
  {
    name: 'an allowed request in a pipeline with an extra stage',
    spec: () => planted({ stages: [idStage, { name: 'sh', executable: '/usr/bin/sh', argv: ['sh', '-c', shText] }] }),
    note: /its stages are not what the recorded read-only policy makes of its command/,
  },
  { name: 'network granted in the spec under read-only', spec: () => planted({ network: true }), note: /\(net\.not_allowed\)/ },
];

describe('a job planted in the state directory (row + spec + sha) runs only what the recorded policy decides', () => {
  it('the test built its LD_PRELOAD library with cc (the attack below is real)', () => {
    assert.ok(preload, 'cc built the preload library');
  });

  for (const a of attacks) {
    it(a.name, async () => {
      const { job, stdout } = await runToEnd(inject(a.spec()));
      assert.equal(job.status, 'failed');
      assert.match(job.note ?? '', /^refused by the supervisor: /);
      assert.match(job.note ?? '', a.note);
      assert.equal(stdout, '', 'nothing ran');
      assert.deepEqual(readdirSync(markers), [], 'the preload library was loaded by no process');
      assert.equal(existsSync(join(env.workspace, 'planted')), false);
    });
  }

  it('control: the preload library does write its marker when a process loads it (the check above can fail)', { skip: preload ? false : 'cc failed' }, () => {
    const r = spawnSync('/usr/bin/true', [], { env: { PATH: '/usr/bin:/bin', LD_PRELOAD: preload! } });
    assert.equal(r.status, 0);
    const seen = readdirSync(markers);
    assert.equal(seen.length, 1);
    for (const f of seen) spawnSync('rm', ['-f', join(markers, f)]);
  });
});

describe('legitimate read-only jobs still run under the supervisor\'s own decision', () => {
  it('cat of a workspace file succeeds', async () => {
    const { job } = await queuer.start(readOnlyRequest(['cat', 'file.txt']));
    const { job: ended, stdout } = await runToEnd(job.id);
    assert.equal(ended.status, 'succeeded', ended.note ?? '');
    assert.equal(stdout, `${CANARY}\n`);
  });

  it('a pipeline and a caller variable (FOO) the policy allows', async () => {
    const { job } = await queuer.start(readOnlyRequest('cat file.txt | wc -l', { FOO: 'bar' }));
    const { job: ended, stdout } = await runToEnd(job.id);
    assert.equal(ended.status, 'succeeded', ended.note ?? '');
    assert.equal(stdout.trim(), '1');
  });

  it('a git command (the read-only policy adds its hardening options; the supervisor\'s decision matches)', async () => {
    const git = spawnSync('git', ['init', '-q', env.workspace]);
    assert.equal(git.status, 0);
    // Not a whole-tree read (git status): the fixture's home is the workspace, so its secret paths
    // lie under the tree and a whole-tree read is refused there, as `grep -r .` is.
    const { job } = await queuer.start(readOnlyRequest(['git', 'rev-parse', '--show-toplevel']));
    const { job: ended, stdout } = await runToEnd(job.id);
    assert.equal(ended.status, 'succeeded', ended.note ?? '');
    assert.equal(stdout.trim(), realpathSync(env.workspace));
  });

  it('a planted spec the policy allows runs as the policy decides it (the decision admits, not the row)', async () => {
    const { job, stdout } = await runToEnd(inject(planted({})));
    assert.equal(job.status, 'succeeded', job.note ?? '');
    assert.match(stdout, /uid=/);
  });
});

describe("the job's environment is applied inside the sandbox, never to the host-side wrapper or bwrap, never on argv", () => {
  it('the command sees its variable; the host-side processes\' environ and every cmdline do not', { skip: hostCaps.bubblewrap.works ? false : 'bubblewrap does not work here' }, async () => {
    const { job: shown } = await queuer.start(readOnlyRequest(['printenv', 'FOO'], { FOO: CANARY }));
    const { job: ended, stdout } = await runToEnd(shown.id);
    assert.equal(ended.status, 'succeeded', ended.note ?? '');
    assert.equal(stdout, `${CANARY}\n`, 'FOO reached the command inside the sandbox');
    // (workspace-write, on the same state dir: read-only refuses /proc paths outside the roots.)
    const ww = makeService(env.stateDir, { maxRunning: 8 }, fixturePolicy(env.stateDir, 'workspace-write'));
    try {
      const { job: fdJob } = await ww.start(shRequest(env.workspace, 'ls /proc/self/fd'));
      const fds = await waitFor(() => (ww.get(fdJob.id).status === 'succeeded' ? readFileSync(jobPaths(env.stateDir, fdJob.id).log('stdout'), 'utf8') : undefined), 20_000, 'the fd listing');
      assert.deepEqual(fds.trim().split('\n').sort(), ['0', '1', '2', '3'], 'the command inherits no fd of the environment pipe (3 is ls reading the directory)');
    } finally {
      ww.close();
    }

    const { job } = await queuer.start(readOnlyRequest(['tail', '-f', 'file.txt'], { FOO: CANARY }));
    claimer.tick();
    const running = await waitFor(() => {
      const j = claimer.get(job.id);
      return j.status === 'running' && j.pid && existsSync(`/proc/${j.pid}`) && readFileSync(`/proc/${j.pid}/cmdline`, 'utf8').includes('bwrap') ? j : undefined;
    }, 10_000, 'the job to run under bwrap');
    const pid = (running as { pid: number }).pid;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      assert.ok(environ.includes('PATH='), 'the host-side bwrap has its fixed environment');
      assert.equal(environ.includes(CANARY), false, 'the job variable is not in the host-side environment');
      assert.equal(readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(CANARY), false, 'nor on its argv');
      const kids = spawnSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
      assert.equal(kids.includes(CANARY), false);
    } finally {
      const { cancelJob } = await import('../../src/execution/jobs/job-control.js');
      await cancelJob(claimer, job.id, 0);
      await runToEnd(job.id);
    }
  });
});

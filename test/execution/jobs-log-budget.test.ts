// The total job-log budget (jobs.max_total_log_bytes) and the free-disk floor (jobs.min_free_disk_bytes):
// real jobs, real supervisors (separate processes sharing one state directory), real SQLite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pruneEndedJobs } from '../../src/execution/jobs/retention.js';
import { createJobsRepo } from '../../src/store/jobs-repo.js';
import { budgetApp, jobLogBytes } from '../helpers/jobs-budget-app.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const MiB = 1024 * 1024;
// Outside the budget: one marker line (< 300 bytes) per cut stream of each job.
const SLACK_PER_JOB = 2 * 300;

function setup(dirs: TempDirs, config: Record<string, unknown>, profile: 'read-only' | 'workspace-write' = 'read-only') {
  return budgetApp({ profile, ws: dirs.workspace, state: dirs.state, home: dirs.root, config });
}

describe('jobs.max_total_log_bytes', () => {
  const all: TempDirs[] = [];
  const fresh = () => {
    const d = tempDirs('wb-budget-');
    all.push(d);
    return d;
  };
  after(() => all.forEach((d) => d.cleanup()));

  test('four concurrent 20 MiB jobs under an 8 MiB budget: the logs stay within it and every job ends naming the limit', async () => {
    const dirs = fresh();
    const app = setup(dirs, { jobs: { max_total_log_bytes: 8 * MiB, max_running: 4 } }, 'workspace-write');
    try {
      // All four start before any writes: each waits for the `go` file the test creates afterwards.
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await app.call('job_start', { command: ['sh', '-c', 'while [ ! -e go ]; do sleep 0.02; done; head -c 20M /dev/zero'] });
        assert.equal(r.isError, false, JSON.stringify(r.s));
        ids.push(r.s.job_id);
      }
      writeFileSync(join(dirs.workspace, 'go'), '');
      for (const id of ids) {
        const end = await app.waitEnded(id);
        assert.equal(end.s.status, 'failed', JSON.stringify(end.s));
        assert.equal(end.s.error_class, 'too_large');
        assert.match(end.s.note, /^too_large: .*jobs\.max_total_log_bytes \(8388608 bytes\)/);
        assert.match(end.s.error, /jobs\.max_total_log_bytes/);
        assert.ok(end.s.stdout_dropped_bytes > 0, 'bytes past the budget are counted as dropped');
        const log = readFileSync(join(dirs.state, 'jobs', id, 'stdout.log'));
        const lastLine = log.subarray(log.lastIndexOf(0x0a, log.length - 2) + 1).toString();
        assert.match(lastLine, /^\[workbench: stdout log stopped: all job logs reached jobs\.max_total_log_bytes \(8388608 bytes\); the job was stopped; \d+ +bytes dropped\]\n$/);
      }
      const onDisk = jobLogBytes(dirs.state);
      assert.ok(onDisk <= 8 * MiB + 4 * SLACK_PER_JOB, `job logs hold ${onDisk} bytes, over the 8 MiB budget plus slack`);
      assert.ok(onDisk >= 8 * MiB - 64 * 1024, `the budget was used (${onDisk} bytes), not refused early`);
    } finally {
      await app.close();
    }
  });

  test('job_start over the budget is refused with too_large naming the key; pruning the old jobs frees it', async () => {
    const dirs = fresh();
    const big = setup(dirs, { jobs: { max_total_log_bytes: 64 * MiB } });
    const small = setup(dirs, { jobs: { max_total_log_bytes: 2 * MiB } });
    try {
      const first = await big.call('job_start', { command: ['head', '-c', '3M', '/dev/zero'] });
      const done = await big.waitEnded(first.s.job_id);
      assert.equal(done.s.status, 'succeeded', JSON.stringify(done.s));
      const refused = await small.call('job_start', { command: ['head', '-c', '1', '/dev/zero'] });
      assert.equal(refused.isError, true);
      assert.equal(refused.s.error_class, 'too_large');
      assert.equal(refused.s.rule, 'jobs.max_total_log_bytes');
      assert.match(refused.s.error, /already hold 3145\d{3} bytes, the jobs\.max_total_log_bytes limit is 2097152; cancel jobs/);
      assert.equal((await small.call('job_list', {})).s.jobs.length, 1, 'no job was created');
      // A server with a larger budget over the same state directory still runs jobs (legitimate use).
      const ok = await big.call('job_start', { command: ['head', '-c', '10', '/dev/zero'] });
      assert.equal((await big.waitEnded(ok.s.job_id)).s.status, 'succeeded');
      // Retention removes the rows, and with them what they held.
      pruneEndedJobs(createJobsRepo(small.deps.store().db), dirs.state, 0, new Date(Date.now() + 1000));
      const again = await small.call('job_start', { command: ['head', '-c', '10', '/dev/zero'] });
      assert.equal(again.isError, false, JSON.stringify(again.s));
      assert.equal((await small.waitEnded(again.s.job_id)).s.status, 'succeeded');
    } finally {
      await big.close();
      await small.close();
    }
  });

  test('stderr and stdout share one budget; a job within it is untouched', async () => {
    const dirs = fresh();
    const app = setup(dirs, { jobs: { max_total_log_bytes: 4 * MiB } }, 'workspace-write');
    try {
      const within = await app.call('job_start', { command: ['sh', '-c', 'head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2'] });
      const ok = await app.waitEnded(within.s.job_id);
      assert.equal(ok.s.status, 'succeeded', JSON.stringify(ok.s));
      assert.equal(ok.s.stdout_dropped_bytes + ok.s.stderr_dropped_bytes, 0);
      const over = await app.call('job_start', { command: ['sh', '-c', 'head -c 2000000 /dev/zero; head -c 3000000 /dev/zero >&2; sleep 30'] });
      const end = await app.waitEnded(over.s.job_id);
      assert.equal(end.s.error_class, 'too_large', JSON.stringify(end.s));
      assert.ok(end.s.stderr_dropped_bytes > 0);
      const onDisk = jobLogBytes(dirs.state);
      assert.ok(onDisk <= 4 * MiB + 2 * SLACK_PER_JOB, `job logs hold ${onDisk} bytes`);
      const err = readFileSync(join(dirs.state, 'jobs', over.s.job_id, 'stderr.log'), 'utf8');
      assert.match(err.slice(-200), /stderr log stopped: all job logs reached jobs\.max_total_log_bytes/);
    } finally {
      await app.close();
    }
  });
});

describe('jobs.min_free_disk_bytes', () => {
  test('a floor above the free space refuses job_start naming the key', async () => {
    const dirs = tempDirs('wb-floor-');
    const s = statfsSync(dirs.state);
    const floor = s.bavail * s.bsize + 1024 ** 4;
    const app = setup(dirs, { jobs: { min_free_disk_bytes: floor } });
    try {
      const r = await app.call('job_start', { command: ['head', '-c', '1', '/dev/zero'] });
      assert.equal(r.isError, true);
      assert.equal(r.s.error_class, 'too_large');
      assert.equal(r.s.rule, 'jobs.min_free_disk_bytes');
      assert.match(r.s.error, new RegExp(`under the jobs\\.min_free_disk_bytes floor of ${floor}; free disk space`));
      assert.equal((await app.call('job_list', {})).s.jobs.length, 0);
    } finally {
      await app.close();
      dirs.cleanup();
    }
  });
});

describe('jobs.min_free_disk_bytes on a small filesystem the test mounts', () => {
  const canMount = process.getuid?.() === 0;
  test('a running job whose logs take the free space down to the floor is stopped naming the key', { skip: canMount ? false : 'needs root to mount a tmpfs' }, async () => {
    const dirs = tempDirs('wb-floor-fs-');
    const mnt = join(dirs.root, 'fs');
    mkdirSync(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0700', 'tmpfs', mnt]);
    const inside: TempDirs = { root: mnt, workspace: join(mnt, 'ws'), state: join(mnt, 'state'), cleanup: () => undefined };
    mkdirSync(inside.workspace);
    mkdirSync(inside.state, { mode: 0o700 });
    const free = () => statfsSync(mnt).bavail * statfsSync(mnt).bsize;
    let app: ReturnType<typeof setup> | undefined;
    try {
      app = setup(inside, { jobs: { min_free_disk_bytes: 40 * MiB } }, 'workspace-write');
      app.deps.store(); // the database exists before the floor is measured (after close: its WAL is gone then)
      await app.close();
      const floor = free() - 6 * MiB;
      app = setup(inside, { jobs: { min_free_disk_bytes: floor } }, 'workspace-write');
      const r = await app.call('job_start', { command: ['head', '-c', '20M', '/dev/zero'] });
      assert.equal(r.isError, false, JSON.stringify(r.s));
      const end = await app.waitEnded(r.s.job_id);
      assert.equal(end.s.error_class, 'too_large', JSON.stringify(end.s));
      assert.match(end.s.note, new RegExp(`jobs\\.min_free_disk_bytes floor \\(${floor} bytes\\)`));
      assert.ok(end.s.stdout_dropped_bytes > 0);
      // Slack: the database, its WAL and the job's small files are outside the log accounting.
      assert.ok(free() >= floor - 1 * MiB, `free space ${free()} fell more than 1 MiB under the floor ${floor}`);
      assert.ok(jobLogBytes(inside.state) <= 6 * MiB, 'the logs held no more than the room above the floor');
    } finally {
      await app?.close();
      execFileSync('umount', ['-l', mnt]);
      dirs.cleanup();
    }
  });
});

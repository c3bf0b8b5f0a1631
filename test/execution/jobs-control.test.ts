// Job control against real processes: tree cancel (setsid daemons included), capped 1 GB output
// paged through, stdin via the FIFO, combined order, timeout, retention, log windows.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cancelJob, sendJobInput, waitForJob } from '../../src/execution/jobs/job-control.js';
import { readJobLog } from '../../src/execution/jobs/job-log.js';
import { jobPaths } from '../../src/execution/jobs/paths.js';
import { readLogWindow } from '../../src/execution/jobs/read-log-window.js';
import { pruneEndedJobs } from '../../src/execution/jobs/retention.js';
import { jobCgroup } from '../../src/execution/jobs/spawn-pipeline.js';
import { alive, makeService, makeStateDir, shRequest, waitFor } from '../helpers/jobs-fixture.js';

const env = makeStateDir();
const svc = makeService(env.stateDir, { maxRunning: 8, maxLogBytes: 10 * 1024 * 1024, retentionDays: 7 });
after(() => {
  svc.close();
  env.cleanup();
});
const start = async (script: string, extra = {}) => (await svc.start(shRequest(env.workspace, script, extra))).job.id;

test('cancel kills the whole tree, including a setsid daemon', async () => {
  const id = await start('setsid sleep 300 & sleep 300');
  const setup = svc.ctx.caps().cgroup;
  const cgroup = jobCgroup(setup, id);
  const pids = setup.usable
    ? await waitFor(() => (cgroup.pids().length >= 3 ? cgroup.pids() : undefined), 5000, 'sh and both sleeps to run')
    : [];
  const sup = JSON.parse(readFileSync(jobPaths(env.stateDir, id).supervisor, 'utf8')) as { procs: Array<{ pid: number }> };
  const all = [...new Set([...pids, ...sup.procs.map((p) => p.pid)])];
  const job = await cancelJob(svc, id, 500);
  assert.equal(job.status, 'cancelled');
  assert.ok(all.length >= 1);
  await waitFor(() => all.every((p) => !alive(p)), 3000, `every recorded pid (${all.join(',')}) to be gone`);
});

test('1 GiB of output: the log keeps the cap plus a marker, counts are exact, job_output pages through it, memory stays flat', async () => {
  const rssBefore = process.memoryUsage().rss;
  const id = await start('head -c 1073741824 /dev/zero | tr "\\0" a');
  let supPeak = 0;
  const job = await waitFor(() => {
    const j = svc.get(id);
    if (j.status === 'running' && j.supPid) supPeak = Math.max(supPeak, rssKb(j.supPid));
    return j.status !== 'running' ? j : undefined;
  }, 60_000, 'the 1 GiB job to end');
  assert.equal(job.status, 'succeeded');
  const cap = 10 * 1024 * 1024;
  assert.equal(job.counts.stdoutBytes, 1024 ** 3);
  assert.equal(job.counts.stdoutDropped, 1024 ** 3 - cap);
  const file = jobPaths(env.stateDir, id).log('stdout');
  let offset = 0;
  let pages = 0;
  let last = '';
  for (;;) {
    const w = readLogWindow(file, { offset, maxBytes: 1_048_576 });
    if (w.next_offset === offset) break;
    offset = w.next_offset;
    last = w.data;
    pages++;
  }
  assert.ok(pages >= 10 && pages <= 12, `paged in ~11 windows (${pages})`);
  assert.match(last, new RegExp(`\\[workbench: stdout log capped at ${cap} bytes \\(jobs.max_log_bytes\\); ${1024 ** 3 - cap} +bytes dropped\\]\\n$`));
  assert.ok(supPeak > 0 && supPeak < 200_000, `supervisor RSS stayed bounded (${supPeak} kB)`);
  assert.ok(process.memoryUsage().rss - rssBefore < 100 * 1024 * 1024, 'server memory stayed flat');
});

test('stdin_open: input goes through the FIFO and close gives EOF', async () => {
  const id = await start('cat; echo "[eof]"', { stdinOpen: true });
  await waitFor(() => svc.get(id).status === 'running' && readFileSafe(jobPaths(env.stateDir, id).supervisor), 5000, 'the job to run');
  await sendJobInput(svc, id, 'hello\n', false);
  await sendJobInput(svc, id, 'world\n', true);
  const job = await waitForJob(svc, id, 5000);
  assert.equal(job.status, 'succeeded');
  assert.equal(readFileSync(jobPaths(env.stateDir, id).log('stdout'), 'utf8'), 'hello\nworld\n[eof]\n');
  await assert.rejects(sendJobInput(svc, id, 'late', false), /succeeded/);
});

test('combined log keeps write order; tail_lines and timeouts', async () => {
  const id = await start('echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c; printf "x\\ny\\nz\\n"');
  assert.equal((await waitForJob(svc, id, 5000)).status, 'succeeded');
  const paths = jobPaths(env.stateDir, id);
  assert.equal(readJobLog(env.stateDir, id, 'combined', { maxBytes: 1000 }).data, 'a\nb\nc\nx\ny\nz\n');
  assert.equal(readJobLog(env.stateDir, id, 'combined', { offset: 2, maxBytes: 3 }).data, 'b\nc');
  assert.equal(readJobLog(env.stateDir, id, 'combined', { maxBytes: 1000, tailLines: 4 }).data, 'c\nx\ny\nz\n');
  assert.equal(readLogWindow(paths.log('stdout'), { maxBytes: 1000, tailLines: 2 }).data, 'y\nz\n');
  const slow = await start('echo started; sleep 30', { timeoutMs: 300 });
  const timed = await waitForJob(svc, slow, 10_000);
  assert.equal(timed.status, 'timed_out');
  assert.equal('signal' in timed && timed.signal, 'SIGTERM');
});

test('log windows never split a UTF-8 character', () => {
  const file = join(env.stateDir, 'utf8.log');
  writeFileSync(file, 'é'.repeat(10)); // 20 bytes, 2 per character
  const w = readLogWindow(file, { offset: 0, maxBytes: 5 });
  assert.equal(w.data, 'éé');
  assert.equal(w.next_offset, 4);
  assert.equal(readLogWindow(file, { maxBytes: 5, tailByDefault: true }).data, 'éé');
});

test('retention prunes ended jobs and their directories, never a running one', async () => {
  const done = await start('true');
  await waitForJob(svc, done, 5000);
  const busy = await start('sleep 30');
  const pruned = pruneEndedJobs(svc.repo, env.stateDir, 0, new Date(Date.now() + 1000));
  assert.ok(pruned >= 1);
  assert.equal(svc.repo.get(done), undefined);
  assert.equal(readFileSafe(jobPaths(env.stateDir, done).spec), undefined);
  assert.equal(svc.get(busy).status, 'running');
  await cancelJob(svc, busy, 0);
});

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSafe(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) : 0;
}

function readFileSafe(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

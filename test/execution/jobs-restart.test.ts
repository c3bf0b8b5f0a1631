// Jobs across a server crash: a real "server" process starts jobs and is kill -9'd; a new service
// (the restarted server) reconciles. Also: a kill -9'd supervisor becomes `lost`; the queue limit holds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cancelJob } from '../../src/execution/jobs/job-control.js';
import { jobPaths } from '../../src/execution/jobs/paths.js';
import { isEnded, type Job } from '../../src/execution/jobs/types.js';
import { alive, killQuietly, makeService, makeStateDir, shRequest, waitFor } from '../helpers/jobs-fixture.js';

const SERVER = fileURLToPath(new URL('../helpers/jobs-server.js', import.meta.url));
const cleanups: Array<() => void> = [];
after(() => cleanups.reverse().forEach((f) => f()));

/** Runs the helper server, returns the job ids it started, and kill -9s it. */
async function crashServer(stateDir: string, workspace: string, maxRunning: number, scripts: string[]): Promise<string[]> {
  const child = spawn(process.execPath, [SERVER, stateDir, workspace, String(maxRunning), JSON.stringify(scripts)], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => killQuietly(child.pid!));
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const ids = await waitFor(() => (out.includes('\n') ? (JSON.parse(out) as string[]) : undefined), 20_000, 'the helper server to print job ids');
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  return ids;
}

test('20 jobs survive a kill -9 of the server: ended ones are recorded with complete logs, running ones keep running and cancel', async () => {
  const { stateDir, workspace, cleanup } = makeStateDir();
  cleanups.push(cleanup);
  const short = (i: number) => `for i in $(seq 1 ${5 + i}); do echo "job${i} line $i"; sleep 0.05; done; exit ${i % 3}`;
  const long = 'while :; do echo tick; sleep 0.1; done';
  const scripts = Array.from({ length: 20 }, (_, i) => (i < 14 ? short(i) : long));
  const ids = await crashServer(stateDir, workspace, 20, scripts);
  // The short ones end while no server runs: only their supervisors record it.
  await waitFor(() => ids.slice(0, 14).every((id) => readFileSafe(jobPaths(stateDir, id).status)), 20_000, 'short jobs to end without a server');
  const svc = makeService(stateDir, { maxRunning: 20 });
  cleanups.push(() => svc.close());
  svc.tick();
  for (const [i, id] of ids.slice(0, 14).entries()) {
    const job = svc.get(id);
    assert.equal(job.status, i % 3 === 0 ? 'succeeded' : 'failed', `job ${i}`);
    assert.equal('exitCode' in job ? job.exitCode : undefined, i % 3);
    const lines = readFileSync(jobPaths(stateDir, id).log('stdout'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 5 + i, `job ${i} has every line`);
    assert.equal(lines.at(-1), `job${i} line ${5 + i}`);
  }
  const running = ids.slice(14).map((id) => svc.get(id));
  assert.ok(running.every((j) => j.status === 'running'), 'long jobs are still running after the restart');
  const pids = running.flatMap((j) => (j.status === 'running' && j.pid ? [j.pid] : []));
  assert.equal(pids.length, 6);
  const ended = await Promise.all(ids.slice(14).map((id) => cancelJob(svc, id, 1000)));
  assert.deepEqual(ended.map((j) => j.status), Array(6).fill('cancelled'));
  assert.ok(pids.every((p) => !alive(p)), 'no cancelled command survives');
});

test('a job whose supervisor is kill -9d becomes lost (and its command is killed), not running forever', async () => {
  const { stateDir, workspace, cleanup } = makeStateDir();
  cleanups.push(cleanup);
  const svc = makeService(stateDir);
  cleanups.push(() => svc.close());
  const { job } = await svc.start(shRequest(workspace, 'while :; do echo x; sleep 0.1; done'));
  const running = await waitFor(() => {
    const j = svc.get(job.id);
    return j.status === 'running' && j.supPid && j.pid ? j : undefined;
  }, 5000, 'the supervisor to record itself');
  killQuietly(running.supPid!);
  await waitFor(() => !alive(running.supPid!), 5000, 'the supervisor to die');
  svc.tick();
  const lost = svc.get(job.id) as Job;
  assert.equal(lost.status, 'lost');
  assert.match(lost.note ?? '', /supervisor \(pid \d+\) ended without recording an end; logs hold stdout \d+ bytes/);
  await waitFor(() => !alive(running.pid!), 5000, 'the orphaned command to be killed');
});

test('queue: max_running=2 runs five jobs two at a time in FIFO order, across a server crash', async () => {
  const { stateDir, workspace, cleanup } = makeStateDir();
  cleanups.push(cleanup);
  const ids = await crashServer(stateDir, workspace, 2, Array(5).fill('sleep 0.4; echo done'));
  const svc = makeService(stateDir, { maxRunning: 2 });
  cleanups.push(() => svc.close());
  let peak = 0;
  const jobs = await waitFor(() => {
    svc.tick();
    peak = Math.max(peak, svc.repo.countByStatus('running'));
    const all = ids.map((id) => svc.get(id));
    return all.every((j) => isEnded(j.status)) ? all : undefined;
  }, 20_000, 'all five jobs to end');
  assert.ok(peak <= 2, `at most two ran at once (saw ${peak})`);
  assert.deepEqual(jobs.map((j) => j.status), Array(5).fill('succeeded'));
  const spans = jobs.map((j) => (isEnded(j.status) && 'endedAt' in j ? [Date.parse(j.startedAt!), Date.parse(j.endedAt)] : [0, 0]));
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0]! >= spans[i - 1]![0]!, 'started in FIFO order');
  for (const [s] of spans) assert.ok(spans.filter(([a, b]) => a! <= s! && s! < b!).length <= 2, 'never more than two overlapping');
});

function readFileSafe(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

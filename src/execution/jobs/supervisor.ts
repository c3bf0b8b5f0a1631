// The supervisor: a detached process that owns one job's command tree for its whole life, writes
// its logs, and records its end durably (status.json, then the database) whether or not a server runs.
import type { ChildProcess } from 'node:child_process';
import { closeSync, readFileSync, writeSync } from 'node:fs';
import { reapCgroup } from '../kill-tree.js';
import type { JobsRepo } from '../../store/jobs-repo.js';
import { writeJsonAtomic } from './atomic-write.js';
import { budgetedBytes, budgetedSink } from './budgeted-sink.js';
import { CappedLog } from './capped-log.js';
import { CombinedIndexWriter } from './combined-index.js';
import { DEFAULT_LOG_BUDGET, LogBudget } from './log-budget.js';
import { jobPaths, type JobPaths } from './paths.js';
import { processStartTime } from './proc-identity.js';
import { startQueued } from './scheduler.js';
import { createFifo, StdinRelay } from './stdin-relay.js';
import { createJobCgroup, pidsOf, spawnStages } from './spawn-pipeline.js';
import { superviseUntilExit, type Ended } from './supervise-exit.js';
import { confinementMissing } from '../../sandbox/policy-sandbox.js';
import type { JobEnd, JobSpec, SupervisorContext } from './types.js';
import { SpecRefused, verifySpec } from './verify-spec.js';

/** What supervisor.json records: who supervises, and the command's processes (pid + start time). */
export interface SupervisorInfo {
  supPid: number;
  supStart: string | null;
  procs: Array<{ pid: number; start: string | null }>;
  layers: string[];
}

interface Logs {
  stdout: CappedLog;
  stderr: CappedLog;
}

/** Runs job `ctx.jobId` under the policy its launcher handed over; a spec that does not match it is refused. */
export async function runSupervisor(ctx: SupervisorContext): Promise<void> {
  process.on('SIGTERM', () => undefined); // never die by TERM before the end is recorded
  const paths = jobPaths(ctx.stateDir, ctx.jobId);
  const logs = openLogs(paths, ctx.maxLogBytes);
  const spec = admit(ctx, paths);
  if (typeof spec === 'string') return endUnstarted(ctx, paths, logs, spec);
  const cgroup = createJobCgroup(ctx, ctx.jobId);
  let spawned: ReturnType<typeof spawnStages>;
  try {
    if (spec.stdinOpen) await createFifo(paths.stdin);
    spawned = spawnStages(ctx, spec, cgroup);
  } catch (err) {
    return endUnstarted(ctx, paths, logs, `could not start: ${(err as Error).message}`);
  }
  const { children, layers } = spawned;
  const pids = pidsOf(children);
  const procs = pids.map((pid) => ({ pid, start: processStartTime(pid) }));
  const info: SupervisorInfo = { supPid: process.pid, supStart: processStartTime(process.pid), procs, layers };
  writeJsonAtomic(paths.supervisor, info);
  handshake({ pid: procs[0]?.pid ?? null });
  const combined = new CombinedIndexWriter(paths.combinedIndex);
  const limitStop = new AbortController();
  const budget = new LogBudget({ jobId: ctx.jobId, stateDir: ctx.stateDir, dbPath: ctx.dbPath, limits: ctx.logBudget ?? DEFAULT_LOG_BUDGET, onExhausted: () => limitStop.abort() });
  wireOutput(children, budgetedSink(logs, combined, budget));
  const relay = spec.stdinOpen && children[0]?.stdin ? new StdinRelay(paths.stdin, children[0].stdin) : undefined;
  let repo: JobsRepo | undefined;
  const onTick = () => {
    for (const l of Object.values(logs)) l.flushMarker();
    safely(() => repo?.setCounts(ctx.jobId, countsOf(logs)));
  };
  // Listen for the end before any await, so a command that ends at once is not missed.
  const ending = superviseUntilExit({ children, pids, cgroup, paths, timeoutMs: spec.timeoutMs, relay, onTick, limitStop: limitStop.signal });
  repo = await openRepo(ctx);
  safely(() => repo?.setSupervisor(ctx.jobId, info.supPid, info.supStart));
  safely(() => repo?.setPid(ctx.jobId, procs[0]?.pid ?? null, procs[0]?.start ?? null));
  const ended = await ending;
  combined.close();
  safely(() => budget.settle(budgetedBytes(logs, combined)));
  const limit = cgroup?.oomKilled() ? 'memory' : cgroup?.pidsLimitHit() ? 'pids' : undefined;
  if (cgroup) await reapCgroup(cgroup);
  const note = budget.stopped?.note ?? (limit ? `the ${limit} limit was hit` : null);
  await finish(ctx, paths, logs, endOf(ended, logs, note), repo);
}

/** Ends a job whose command never started: tells the launcher, records `failed` with the reason as the note. */
async function endUnstarted(ctx: SupervisorContext, paths: JobPaths, logs: Logs, note: string): Promise<void> {
  handshake({ pid: null, error: note });
  return finish(ctx, paths, logs, endOf({ code: null, signal: null, reason: 'exit' }, logs, note), await openRepo(ctx));
}

/** The verified spec, or why it must not run (a spec not bound to the launcher's policy, or confinement the policy requires but the host lacks). */
function admit(ctx: SupervisorContext, paths: JobPaths): JobSpec | string {
  try {
    const spec = verifySpec(ctx, readSpecBytes(paths.spec));
    const missing = confinementMissing(ctx.policy, ctx.caps);
    return missing ? `refused by the supervisor: ${missing}; the job was not run` : spec;
  } catch (err) {
    if (err instanceof SpecRefused) return err.message;
    throw err;
  }
}

/** Records the end (file first, then the row), then lets the next queued job of the same policy start. */
async function finish(ctx: SupervisorContext, paths: JobPaths, logs: Logs, end: JobEnd, repo: JobsRepo | undefined): Promise<void> {
  for (const l of Object.values(logs)) l.close();
  writeJsonAtomic(paths.status, end);
  safely(() => repo?.finish(ctx.jobId, end));
  const { jobId: _, specSha256: __, ...launch } = ctx;
  if (repo) safely(() => startQueued({ repo, policyFp: launch.policyFp, maxRunning: launch.maxRunning, launch: () => launch, now: () => new Date() }));
}

function openLogs(paths: JobPaths, cap: number): Logs {
  return {
    stdout: new CappedLog(paths.log('stdout'), cap, 'stdout'),
    stderr: new CappedLog(paths.log('stderr'), cap, 'stderr'),
  };
}

/** Streams output to the logs chunk by chunk (synchronous appends: nothing is buffered in memory); the combined index records the order. */
function wireOutput(children: ChildProcess[], sink: (stream: 0 | 1, chunk: Buffer) => void): void {
  children[children.length - 1]!.stdout!.on('data', (c: Buffer) => sink(0, c));
  for (const child of children) child.stderr!.on('data', (c: Buffer) => sink(1, c));
}

function endOf(ended: Ended, logs: Logs, note: string | null): JobEnd {
  const status =
    ended.reason === 'cancelled' ? 'cancelled' : ended.reason === 'timeout' ? 'timed_out' : ended.code === 0 && ended.reason !== 'limit' ? 'succeeded' : 'failed';
  return { status, exitCode: ended.code, signal: ended.signal, endedAt: new Date().toISOString(), counts: countsOf(logs), note };
}

function countsOf(logs: Logs): JobEnd['counts'] {
  return { stdoutBytes: logs.stdout.total, stderrBytes: logs.stderr.total, stdoutDropped: logs.stdout.dropped, stderrDropped: logs.stderr.dropped };
}

/** Tells the launcher (fd 3, when it is still listening) the command's pid. */
function handshake(msg: { pid: number | null; error?: string }): void {
  try {
    writeSync(3, `${JSON.stringify(msg)}\n`);
    closeSync(3);
  } catch {
    /* the launcher is gone or did not ask */
  }
}

/** Opens the store lazily (after the command started: loading SQLite is not on the start path). */
async function openRepo(ctx: SupervisorContext): Promise<JobsRepo | undefined> {
  try {
    const [{ openDb }, { createJobsRepo }] = await Promise.all([import('../../store/db.js'), import('../../store/jobs-repo.js')]);
    return createJobsRepo(openDb(ctx.dbPath));
  } catch (err) {
    process.stderr.write(`supervisor: cannot open the store: ${(err as Error).message}\n`);
    return undefined;
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    process.stderr.write(`supervisor: ${(err as Error).message}\n`);
  }
}

function readSpecBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

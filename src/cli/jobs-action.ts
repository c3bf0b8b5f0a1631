// What `workbench jobs …` does: open the store and a job service without timers, then list, show, print or cancel.
import { join } from 'node:path';
import { cancelJob } from '../execution/jobs/job-control.js';
import { viewJob, type JobView } from '../execution/jobs/job-view.js';
import { readJobLog, type OutputStream } from '../execution/jobs/job-log.js';
import { createJobService, jobLimitsOf, type JobService } from '../execution/jobs/service.js';
import { isEnded, JOB_STATUSES, type JobStatusName } from '../execution/jobs/types.js';
import { escapeControl, escapeTerminal, safeJson } from '../shared/escape-text.js';
import { bindPolicy, policyRecordOf } from '../config/policy-record.js';
import { detectCapabilities } from '../sandbox/capabilities.js';
import { openDb } from '../store/db.js';
import { loadSettings } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';

/** Flags every `workbench jobs` subcommand takes. */
export type JobFlags = GlobalFlags & { json?: boolean };

/** Opens the store and a job service without timers (the CLI never schedules on its own). */
async function openService(flags: GlobalFlags): Promise<JobService> {
  try {
    const { config, runtime } = loadSettings(flags);
    const dbPath = join(runtime.stateDir, 'workbench.db');
    // Probed once up front (asynchronously): starting the next queued job after a cancel needs them.
    const caps = await detectCapabilities(runtime.stateDir);
    return createJobService({
      db: openDb(dbPath), dbPath, stateDir: runtime.stateDir, now: () => new Date(),
      policy: bindPolicy(policyRecordOf(config, runtime)),
      caps: () => caps,
      limits: jobLimitsOf(config.jobs),
    });
  } catch (err) {
    fail((err as Error).message);
  }
}

/** One job per line; every field is escaped, so a name or command cannot forge lines. */
function line(v: JobView): string {
  const code = v.exit_code !== null ? ` exit=${v.exit_code}` : v.signal ? ` signal=${v.signal}` : '';
  const text = `${v.job_id}  ${v.status.padEnd(9)}${code.padEnd(9)}  ${v.started_at ?? '-'}  ${v.name ? `[${v.name}] ` : ''}${v.command}`;
  return escapeControl(text);
}

function field(x: unknown): string {
  return escapeControl(x === null || x === undefined ? '-' : typeof x === 'object' ? JSON.stringify(x) : String(x));
}

function show(svc: JobService, id: string, json?: boolean): void {
  const v = viewJob(svc.ctx.stateDir, svc.get(id), new Date(), svc.ctx.policy.fingerprint);
  process.stdout.write(json ? `${safeJson(v, 2)}\n` : `${Object.entries(v).map(([k, x]) => `${k}: ${field(x)}`).join('\n')}\n`);
}

/**
 * Prints a log from the start; with follow, keeps printing until the job has ended and everything
 * was read. A job's output is text others chose: on a terminal its control sequences (title,
 * clear screen, cursor moves) are shown escaped, newlines and tabs kept; `raw` (or a pipe) prints it as it is.
 */
async function printLog(svc: JobService, id: string, stream: OutputStream, opts: { follow: boolean; raw: boolean }): Promise<void> {
  const read = (offset: number, maxBytes: number) => readJobLog(svc.ctx.stateDir, svc.get(id).id, stream, { offset, maxBytes });
  const shown = opts.raw || !process.stdout.isTTY ? (s: string) => s : escapeTerminal;
  const follow = opts.follow;
  let offset = 0;
  for (;;) {
    const w = read(offset, 1_048_576);
    if (w.data) process.stdout.write(shown(w.data));
    offset = w.next_offset;
    if (offset < w.total_bytes) continue;
    if (!follow || isEnded(svc.get(id).status)) {
      if (read(offset, 1).total_bytes <= offset) return;
      continue;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `jobs ls`: newest first, optionally by status. */
export async function listJobs(flags: JobFlags & { status?: string; limit: string }): Promise<void> {
  if (flags.status && !JOB_STATUSES.includes(flags.status as JobStatusName)) fail(`--status must be one of ${JOB_STATUSES.join(', ')}`);
  const svc = await openService(flags);
  const page = svc.repo.list({ status: flags.status as JobStatusName | undefined, limit: Number(flags.limit) || 50 });
  const views = page.jobs.map((j) => viewJob(svc.ctx.stateDir, j.status === 'running' ? svc.get(j.id) : j, new Date(), svc.ctx.policy.fingerprint));
  process.stdout.write(flags.json ? `${safeJson(views, 2)}\n` : views.map(line).join('\n') + (views.length ? '\n' : 'no jobs\n'));
}

/** `jobs show <id>`. */
export function showJob(id: string, flags: JobFlags): Promise<void> {
  return run(async () => show(await openService(flags), id, flags.json));
}

/** `jobs logs <id>`. */
export function printJobLog(id: string, flags: JobFlags & { stream: string; follow?: boolean; raw?: boolean }): Promise<void> {
  if (!['stdout', 'stderr', 'combined'].includes(flags.stream)) fail('--stream must be stdout, stderr or combined');
  return run(async () => printLog(await openService(flags), id, flags.stream as OutputStream, { follow: Boolean(flags.follow), raw: Boolean(flags.raw) }));
}

/** `jobs cancel <id>`: TERM the tree, KILL after the grace. */
export function cancelJobCommand(id: string, flags: JobFlags & { grace: string }): Promise<void> {
  return run(async () => {
    const svc = await openService(flags);
    const job = await cancelJob(svc, id, Number(flags.grace) || 0);
    process.stdout.write(`${line(viewJob(svc.ctx.stateDir, job, new Date()))}\n`);
  });
}

async function run(fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    fail((err as Error).message);
  }
}

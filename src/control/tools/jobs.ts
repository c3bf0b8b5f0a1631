// job_* tools (SPEC §3.2) and the job log resources: schemas, descriptions, calls into execution/jobs.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { redact } from '../../policy/env-rules.js';
import { AppError } from '../../shared/errors.js';
import { cancelJob, sendJobInput, waitForJob } from '../../execution/jobs/job-control.js';
import { viewJob } from '../../execution/jobs/job-view.js';
import { readJobLog } from '../../execution/jobs/job-log.js';
import { createJobService, type JobService, type StartRequest } from '../../execution/jobs/service.js';
import { isEnded, JOB_STATUSES, type Job } from '../../execution/jobs/types.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef, type ToolOutcome } from '../tool.js';
import { decideOrThrow } from './commands.js';
import { childEnv, sandboxOptions, serverSecrets } from './run-command-exec.js';

const RECONCILE_MS = 2000;
const DAY_MS = 86_400_000;
const RO = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const jobId = z.string().describe('id returned by job_start');

const viewShape = {
  job_id: z.string(), name: z.string().nullable(), status: z.enum(JOB_STATUSES), exit_code: z.number().int().nullable(),
  signal: z.string().nullable(), pid: z.number().int().nullable(), started_at: z.string().nullable(), ended_at: z.string().nullable(),
  duration_ms: z.number().nullable(), stdout_bytes: z.number(), stderr_bytes: z.number(), stdout_dropped_bytes: z.number(),
  stderr_dropped_bytes: z.number(), command: z.string(), note: z.string().optional(),
};

/** The process's job service: created on first use, reconciled at once and then every 2 s (unref'd timer). */
export function jobService(deps: AppDeps): JobService {
  return deps.service('jobs', () => {
    const { config, runtime } = deps;
    const svc = createJobService({
      db: deps.store().db,
      dbPath: join(runtime.stateDir, 'workbench.db'),
      stateDir: runtime.stateDir,
      limits: { maxRunning: config.jobs.max_running, maxQueued: config.jobs.max_queued, maxLogBytes: config.jobs.max_log_bytes, retentionDays: config.jobs.retention_days },
      now: () => deps.now(),
      onError: (err) => deps.logger.error({ event: 'jobs_reconcile_failed', err }),
    });
    svc.tick();
    deps.onClose(svc.startTimer(RECONCILE_MS));
    return svc;
  });
}

/** Start-up hook for main.ts: reconcile jobs and start the timer before serving. */
export function startJobs(deps: AppDeps): void {
  jobService(deps);
}

/** The policy decision plus everything the supervisor needs, as a start request. */
function startRequest(deps: AppDeps, args: z.infer<typeof startInput>): StartRequest {
  const decision = decideOrThrow(deps, args);
  const cwd = args.cwd ?? deps.runtime.workspaceRoots[0]!;
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new AppError('not_found', `cwd ${cwd} is not an existing directory`);
  const caps = deps.capabilities();
  if (deps.config.sandbox.require && !caps.bubblewrap.works) {
    throw new AppError('unavailable', `sandbox.require is set but bubblewrap cannot confine commands here: ${caps.bubblewrap.reason ?? 'unknown'}`);
  }
  const { sandbox } = deps.config;
  return {
    name: args.name ?? null,
    command: typeof args.command === 'string' ? args.command : args.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' '),
    stages: decision.stages,
    cwd,
    env: childEnv(args.env),
    sandbox: sandboxOptions(deps, cwd, decision.network),
    caps,
    cgroupLimits: { memoryBytes: sandbox.memory_max_mb * 1024 * 1024, pidsMax: sandbox.pids_max, cpuPercent: sandbox.cpu_percent },
    timeoutMs: args.timeout_ms ?? 0,
    stdinOpen: args.stdin_open ?? false,
  };
}

const startInput = z
  .object({
    command: z.union([z.array(z.string()).min(1), z.string().min(1)]).describe('argv array (preferred) or a string (no shell; a|b pipelines allowed)'),
    cwd: z.string().optional().describe('absolute; default: first workspace root'),
    env: z.record(z.string(), z.string()).optional(),
    name: z.string().max(200).optional(),
    timeout_ms: z.number().int().min(0).max(DAY_MS).optional().describe('0 = none (default); max 24 h'),
    network: z.boolean().optional(),
    stdin_open: z.boolean().optional().describe('keep stdin open for job_input'),
  })
  .strict();

/** Renders a job as a tool result; a failed/cancelled/lost job is data, not an error. */
function jobOutcome(deps: AppDeps, job: Job): ToolOutcome {
  const view = viewJob(deps.runtime.stateDir, job, deps.now());
  const bad = isEnded(job.status) && job.status !== 'succeeded';
  const cls = job.status === 'timed_out' ? 'timeout' : job.status === 'cancelled' ? 'cancelled' : 'exec_failed';
  const why = job.status === 'failed' ? (view.signal ? `killed by signal ${view.signal}` : `exited with code ${view.exit_code}`) : `job ${job.status}`;
  return { data: { ...view }, failure: bad ? { error: view.note ? `${why}: ${view.note}` : why, errorClass: cls } : undefined };
}

const outputInput = z
  .object({
    job_id: jobId,
    stream: z.enum(['stdout', 'stderr', 'combined']).default('stdout').describe('combined = both, in write order'),
    offset: z.number().int().min(0).optional().describe('byte offset (default 0); continue from next_offset'),
    max_bytes: z.number().int().min(1).max(1_048_576).default(16_384),
    tail_lines: z.number().int().min(1).max(100_000).optional().describe('last N lines instead of offset'),
  })
  .strict();

/** Reads a window of a job log; server secrets are redacted from the text. */
function readOutput(deps: AppDeps, args: z.infer<typeof outputInput>, tailByDefault = false): ToolOutcome {
  const job = jobService(deps).get(args.job_id);
  const w = readJobLog(deps.runtime.stateDir, job.id, args.stream, { offset: args.offset, maxBytes: args.max_bytes, tailLines: args.tail_lines, tailByDefault });
  const eof = isEnded(job.status) && w.next_offset >= w.total_bytes;
  const capped = args.stream === 'stderr' ? job.counts.stderrDropped > 0 : args.stream === 'stdout' ? job.counts.stdoutDropped > 0 : job.counts.stdoutDropped + job.counts.stderrDropped > 0;
  const secrets = serverSecrets(deps);
  const data = secrets.length > 0 ? redact(w.data, secrets) : w.data;
  const more = w.next_offset < w.total_bytes ? `; more from offset ${w.next_offset}` : eof ? '; end of log' : '; job still running';
  const text = `${data}\n[${args.stream} bytes ${w.offset}-${w.next_offset} of ${w.total_bytes}${more}${capped ? '; log capped (jobs.max_log_bytes)' : ''}]`;
  return { data: { data, offset: w.offset, next_offset: w.next_offset, eof, total_bytes: w.total_bytes, capped }, truncated: w.next_offset < w.total_bytes, text };
}

/** The job tools. */
export function jobTools(deps: AppDeps): ToolDef[] {
  return [
    defineTool({
      name: 'job_start',
      description: 'Start a long command (build, tests, script) as a durable background job, same policy and sandbox as run_command. Returns job_id at once; then job_wait/job_output. Survives restarts.',
      input: startInput,
      output: { job_id: z.string(), status: z.enum(JOB_STATUSES), pid: z.number().int().nullable() },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      async handler(args) {
        const { job, pid } = await jobService(deps).start(startRequest(deps, args));
        return { data: { job_id: job.id, status: job.status, pid: job.status === 'running' ? pid : null } };
      },
    }),
    defineTool({
      name: 'job_status',
      description: 'Status of a job: queued|running|succeeded|failed|cancelled|timed_out|lost, exit code, times, output byte counts.',
      input: z.object({ job_id: jobId }).strict(),
      output: viewShape,
      annotations: RO,
      lane: 'status',
      handler: async (args) => jobOutcome(deps, jobService(deps).get(args.job_id)),
    }),
    defineTool({
      name: 'job_output',
      description: 'Read a job log window (stdout|stderr|combined) from offset (then next_offset) or the last tail_lines; ≤1 MiB per call; eof once ended and all read.',
      input: outputInput,
      output: { data: z.string(), offset: z.number(), next_offset: z.number(), eof: z.boolean(), total_bytes: z.number(), capped: z.boolean() },
      annotations: RO,
      lane: 'status',
      handler: async (args) => readOutput(deps, args),
    }),
    defineTool({
      name: 'job_wait',
      description: 'Wait up to timeout_ms (max 20000) for a job to end; returns its status either way. Call again to keep waiting.',
      input: z.object({ job_id: jobId, timeout_ms: z.number().int().min(0).max(20_000).default(20_000) }).strict(),
      output: viewShape,
      annotations: RO,
      handler: async (args, ctx) => jobOutcome(deps, await waitForJob(jobService(deps), args.job_id, args.timeout_ms, ctx.signal)),
    }),
    defineTool({
      name: 'job_cancel',
      description: 'Cancel a job: SIGTERM to its whole process tree, SIGKILL after grace_ms (default 3000); a queued job never starts.',
      input: z.object({ job_id: jobId, grace_ms: z.number().int().min(0).max(60_000).default(3000) }).strict(),
      output: viewShape,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, idempotentHint: true },
      handler: async (args) => jobOutcome(deps, await cancelJob(jobService(deps), args.job_id, args.grace_ms)),
    }),
    defineTool({
      name: 'job_input',
      description: 'Write text to the stdin of a running job started with stdin_open; close: true ends its stdin (EOF) after writing.',
      input: z.object({ job_id: jobId, data: z.string().max(1_048_576), close: z.boolean().default(false) }).strict(),
      output: { bytes: z.number(), closed: z.boolean() },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      handler: async (args) => ({ data: await sendJobInput(jobService(deps), args.job_id, args.data, args.close) }),
    }),
    defineTool({
      name: 'job_list',
      description: 'List jobs, newest first, optionally by status; page with cursor.',
      input: z.object({ status: z.enum(JOB_STATUSES).optional(), limit: z.number().int().min(1).max(200).default(50), cursor: z.string().regex(/^\d+$/).optional() }).strict(),
      output: { jobs: z.array(z.object(viewShape)), next_cursor: z.string().nullable() },
      annotations: RO,
      lane: 'status',
      async handler(args) {
        const svc = jobService(deps);
        const page = svc.repo.list({ status: args.status, limit: args.limit, before: args.cursor ? Number(args.cursor) : undefined });
        const jobs = page.jobs.map((j) => viewJob(deps.runtime.stateDir, j, deps.now()));
        return { data: { jobs, next_cursor: page.next !== undefined ? String(page.next) : null } };
      },
    }),
  ];
}

/** Registers workbench://jobs/{job_id}/{stdout|stderr}: the last 16 KiB of the log (job_output pages further). */
export function registerJobResources(server: McpServer, deps: AppDeps): void {
  server.registerResource(
    'job-log',
    new ResourceTemplate('workbench://jobs/{job_id}/{stream}', { list: undefined }),
    { title: 'Job log', description: 'Last 16 KiB of a job stdout or stderr; use job_output to page.', mimeType: 'text/plain' },
    async (uri, vars) => {
      const stream = String(vars.stream);
      if (stream !== 'stdout' && stream !== 'stderr') throw new ResourceNotFoundError(uri.href, 'stream must be stdout or stderr');
      try {
        const out = readOutput(deps, { job_id: String(vars.job_id), stream, max_bytes: 16_384 }, true);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: String(out.data.data) }] };
      } catch (err) {
        if (err instanceof AppError && err.errorClass === 'not_found') throw new ResourceNotFoundError(uri.href, err.message);
        throw err;
      }
    },
  );
}

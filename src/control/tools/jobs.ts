// job_* tools (SPEC §3.2) and the job log resources: schemas, descriptions, calls into execution/jobs.
// Definitions load with zod only; the job store and supervisor load on the first call.
import { z } from 'zod';
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { JOB_STATUSES } from '../../execution/jobs/types.js';
import { AppError } from '../../shared/errors.js';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { serverRedactor } from '../redaction.js';
import { defineTool, type ToolDef } from '../tool.js';
import { jobId, listInput, outputInput, startInput, viewShape } from './jobs-schema.js';

const handlers = lazy(() => import('./job-handlers.js'));
const RO = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** The job tools. */
export function jobTools(deps: AppDeps): ToolDef[] {
  return [
    defineTool({
      name: 'job_start',
      description: 'Start a long command (build, tests, script) as a durable background job, same policy and sandbox as run_command. Returns job_id at once; then job_wait/job_output. Survives restarts.',
      schemas: () => ({
        input: startInput(),
        output: { job_id: z.string(), status: z.enum(JOB_STATUSES), pid: z.number().int().nullable() },
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      async handler(args) {
        const { jobService, startRequest } = await handlers();
        const { job, pid } = await jobService(deps).start(await startRequest(deps, args));
        return { data: { job_id: job.id, status: job.status, pid: job.status === 'running' ? pid : null } };
      },
    }),
    defineTool({
      name: 'job_status',
      description: 'Status of a job: queued|running|succeeded|failed|cancelled|timed_out|lost, exit code, times, output byte counts.',
      schemas: () => ({
        input: z.object({ job_id: jobId() }).strict(),
        output: viewShape(),
      }),
      annotations: RO,
      lane: 'status',
      async handler(args) {
        const { jobOutcome, jobService } = await handlers();
        return jobOutcome(deps, jobService(deps).get(args.job_id));
      },
    }),
    defineTool({
      name: 'job_output',
      description: 'Read a job log window (stdout|stderr|combined) from offset (then next_offset) or the last tail_lines; ≤1 MiB per call; eof once ended and all read.',
      schemas: () => ({
        input: outputInput(),
        output: { data: z.string(), offset: z.number(), next_offset: z.number(), eof: z.boolean(), total_bytes: z.number(), capped: z.boolean() },
      }),
      annotations: RO,
      lane: 'status',
      handler: async (args) => (await handlers()).readOutput(deps, args),
    }),
    defineTool({
      name: 'job_wait',
      description: 'Wait up to timeout_ms (max 20000) for a job to end; returns its status either way. Call again to keep waiting.',
      schemas: () => ({
        input: z.object({ job_id: jobId(), timeout_ms: z.number().int().min(0).max(20_000).default(20_000) }).strict(),
        output: viewShape(),
      }),
      annotations: RO,
      async handler(args, ctx) {
        const { jobOutcome, jobService, waitForJob } = await handlers();
        return jobOutcome(deps, await waitForJob(jobService(deps), args.job_id, args.timeout_ms, ctx.signal));
      },
    }),
    defineTool({
      name: 'job_cancel',
      description: 'Cancel a job: SIGTERM to its whole process tree, SIGKILL after grace_ms (default 3000); a queued job never starts.',
      schemas: () => ({
        input: z.object({ job_id: jobId(), grace_ms: z.number().int().min(0).max(60_000).default(3000) }).strict(),
        output: viewShape(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, idempotentHint: true },
      async handler(args) {
        const { cancelJob, jobOutcome, jobService } = await handlers();
        return jobOutcome(deps, await cancelJob(jobService(deps), args.job_id, args.grace_ms));
      },
    }),
    defineTool({
      name: 'job_input',
      description:
        'Write text to the stdin of a running job started with stdin_open; close: true ends its stdin (EOF) after writing. Backpressured: if the command does not read, answers busy with bytes_written (UTF-8 bytes of data accepted); resend the rest later.',
      schemas: () => ({
        input: z.object({ job_id: jobId(), data: z.string().max(1_048_576), close: z.boolean().default(false) }).strict(),
        output: { bytes_written: z.number(), closed: z.boolean() },
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      async handler(args) {
        const { sendInputInOrder } = await handlers();
        return { data: await sendInputInOrder(deps, args.job_id, args.data, args.close) };
      },
    }),
    defineTool({
      name: 'job_list',
      description: 'List jobs, newest first, optionally by status; page with cursor.',
      schemas: () => ({
        input: listInput(),
        output: { jobs: z.array(z.object(viewShape())), next_cursor: z.string().nullable() },
      }),
      annotations: RO,
      lane: 'status',
      handler: async (args) => (await handlers()).listJobs(deps, args),
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
        const { readOutput } = await handlers();
        const out = readOutput(deps, { job_id: String(vars.job_id), stream, max_bytes: 16_384 }, true);
        // Resources are not tool results: they pass the same redactor explicitly.
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: serverRedactor(deps).text(String(out.data.data)) }] };
      } catch (err) {
        if (err instanceof AppError && err.errorClass === 'not_found') throw new ResourceNotFoundError(uri.href, err.message);
        throw err;
      }
    },
  );
}

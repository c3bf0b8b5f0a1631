// Input and result schemas of the job_* tools, shared by their definitions and their handlers.
// Each is a builder, called when a definition's schemas are first needed (not at start-up).
import { z } from 'zod';
import { JOB_STATUSES } from '../../execution/jobs/types.js';

const DAY_MS = 86_400_000;

/** The id argument every job tool takes. */
export const jobId = () => z.string().describe('id returned by job_start');

/** A job as the tools report it (job_status, job_wait, job_cancel, job_list entries). */
export const viewShape = () => ({
  job_id: z.string(), name: z.string().nullable(), status: z.enum(JOB_STATUSES), exit_code: z.number().int().nullable(),
  signal: z.string().nullable(), pid: z.number().int().nullable(), started_at: z.string().nullable(), ended_at: z.string().nullable(),
  duration_ms: z.number().nullable(), stdout_bytes: z.number(), stderr_bytes: z.number(), stdout_dropped_bytes: z.number(),
  stderr_dropped_bytes: z.number(), command: z.string(), note: z.string().optional(),
});

/** job_start arguments. */
export const startInput = () =>
  z
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

/** job_output arguments. */
export const outputInput = () =>
  z
    .object({
      job_id: jobId(),
      stream: z.enum(['stdout', 'stderr', 'combined']).default('stdout').describe('combined = both, in write order'),
      offset: z.number().int().min(0).optional().describe('byte offset (default 0); continue from next_offset'),
      max_bytes: z.number().int().min(1).max(1_048_576).default(16_384),
      tail_lines: z.number().int().min(1).max(100_000).optional().describe('last N lines instead of offset'),
    })
    .strict();

/** job_list arguments. */
export const listInput = () =>
  z.object({ status: z.enum(JOB_STATUSES).optional(), limit: z.number().int().min(1).max(200).default(50), cursor: z.string().regex(/^\d+$/).optional() }).strict();

/** Parsed job_start arguments. */
export type StartArgs = z.infer<ReturnType<typeof startInput>>;

/** Parsed job_output arguments. */
export type OutputArgs = z.infer<ReturnType<typeof outputInput>>;

/** Parsed job_list arguments. */
export type ListArgs = z.infer<ReturnType<typeof listInput>>;

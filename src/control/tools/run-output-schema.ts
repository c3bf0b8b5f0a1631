// The result fields of run_command, kept apart from the run code so the definition loads light.
import { z } from 'zod';

/** What a finished run_command reports (also the shape UFO's execute_command results derive from). */
export const runOutputShape = {
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  stdout: z.string(),
  stderr: z.string(),
  stdout_bytes: z.number(),
  stderr_bytes: z.number(),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  duration_ms: z.number(),
  sandbox: z.array(z.string()),
  limit_hit: z.string().optional(),
};

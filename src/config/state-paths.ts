// Paths inside the state directory that low layers need without loading the config loader (zod,
// TOML): the job supervisor imports the sandbox, and a lighter start-up makes `job_start` faster.
import { join } from 'node:path';

/** The private directory for the sandbox's host-side files (seccomp program, mask file). */
export function privateSandboxDir(stateDir: string): string {
  return join(stateDir, 'sandbox');
}

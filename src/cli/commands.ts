// The subcommands of `workbench`; each lives in its own file.
import type { Command, Option } from 'commander';
import { registerAudit } from './audit.js'; // issue 6
import { registerConfigInit } from './config-init.js';
import { registerDoctor } from './doctor.js';
import { registerJobs } from './jobs.js';
import { registerServe } from './serve.js';
import { registerStdio } from './stdio.js';
import { registerTasks } from './tasks.js'; // issue 7
import { registerToken } from './token.js';

/** Registers every subcommand on the root program. */
export function registerCommands(program: Command, _deps: { Option: typeof Option }): void {
  for (const register of [registerStdio, registerServe, registerDoctor, registerConfigInit, registerToken, registerJobs, registerAudit, registerTasks]) register(program);
}

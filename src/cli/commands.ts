// The subcommands of `workbench`; each lives in its own file.
import type { Command, Option } from 'commander';
import { registerConfigInit } from './config-init.js';
import { registerDoctor } from './doctor.js';
import { registerServe } from './serve.js';
import { registerStdio } from './stdio.js';
import { registerToken } from './token.js';

/** Registers every subcommand on the root program. */
export function registerCommands(program: Command, _deps: { Option: typeof Option }): void {
  for (const register of [registerStdio, registerServe, registerDoctor, registerConfigInit, registerToken]) register(program);
}

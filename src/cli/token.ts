// `workbench token`
import type { Command } from 'commander';
import { stateDirectory } from '../config/runtime.js';
import { loadOrCreateToken } from '../control/http/token.js';
import { mkdirSync } from 'node:fs';

/** Registers `workbench token`: prints the HTTP API key (creating it on first use). */
export function registerToken(program: Command): void {
  program
    .command('token')
    .description('print the bearer token for the HTTP transport (created on first use, stored 0600)')
    .action(() => {
      const dir = stateDirectory();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      process.stdout.write(`${loadOrCreateToken(dir)}\n`);
    });
}

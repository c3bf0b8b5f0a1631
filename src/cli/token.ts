// `workbench token`
import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';

/** Registers `workbench token`: prints the HTTP API key (creating it on first use). */
export function registerToken(program: Command): void {
  program
    .command('token')
    .description('print the bearer token for the HTTP transport (created on first use, stored 0600)')
    .action(async () => {
      const [{ stateDirectory }, { loadOrCreateToken }] = await Promise.all([import('../config/runtime.js'), import('../control/http/token.js')]);
      const dir = stateDirectory();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      process.stdout.write(`${loadOrCreateToken(dir)}\n`);
    });
}

// `workbench token`
import type { Command } from 'commander';

/** Registers `workbench token`: prints the HTTP API key (creating it on first use). */
export function registerToken(program: Command): void {
  program
    .command('token')
    .description('print the bearer token for the HTTP transport (created on first use, stored 0600)')
    .action(async () => {
      const [{ ownStateDirectory }, { loadOrCreateToken }] = await Promise.all([import('../config/runtime.js'), import('../control/http/token.js')]);
      // The same ownership, mode and no-symlink check as stdio/serve: the token is written only
      // into a state directory nobody else can swap or read (a refusal is one line, exit 2).
      const dir = ownStateDirectory();
      process.stdout.write(`${loadOrCreateToken(dir)}\n`);
    });
}

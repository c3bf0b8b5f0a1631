// `workbench stdio`
import type { Command } from 'commander';
import { withGlobalFlags, type GlobalFlags } from './flags.js';

/** Registers `workbench stdio`; the serving code loads only when the command runs. */
export function registerStdio(program: Command): void {
  withGlobalFlags(program.command('stdio').description('serve MCP over stdin/stdout (for clients that spawn the server)')).action(
    async (flags: GlobalFlags) => (await import('./stdio-action.js')).runStdio(flags),
  );
}

// `workbench stdio`
import type { Command } from 'commander';
import { startStdio } from '../control/stdio.js';
import { bootApp, fail, withGlobalFlags, type GlobalFlags } from './boot.js';

/** Registers `workbench stdio`. */
export function registerStdio(program: Command): void {
  withGlobalFlags(program.command('stdio').description('serve MCP over stdin/stdout (for clients that spawn the server)')).action(
    async (flags: GlobalFlags) => {
      let app;
      try {
        app = bootApp(flags);
      } catch (err) {
        fail((err as Error).message);
      }
      const stop = () => app.shutdown.abort();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      await startStdio(app);
      await app.deps.close();
      process.exit(0);
    },
  );
}

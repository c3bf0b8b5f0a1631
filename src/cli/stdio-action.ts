// What `workbench stdio` does: boot the app and serve one stdio connection until stdin closes.
import { startStdio } from '../control/stdio.js';
import { bootApp } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';

/** Serves MCP over stdin/stdout, then exits 0. */
export async function runStdio(flags: GlobalFlags): Promise<void> {
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
}

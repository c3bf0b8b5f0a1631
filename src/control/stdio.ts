// `workbench stdio`: MCP over stdin/stdout for clients that spawn the server; logs go to stderr.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { App } from './app.js';
import { createServer } from './server.js';

/** Serves one stdio connection; resolves when the client closes stdin. */
export function startStdio(app: App): Promise<void> {
  return new Promise((resolve) => {
    const handle = serveStdio(() => createServer(app.deps, app.gates, app.tools, { transport: 'stdio' }), {
      onerror: (err) => app.deps.logger.warn({ event: 'stdio_error', err: err.message }),
    });
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    app.shutdown.signal.addEventListener('abort', () => {
      void handle.close().then(resolve);
    });
  });
}

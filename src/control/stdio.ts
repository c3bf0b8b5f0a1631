// `workbench stdio`: MCP over stdin/stdout for clients that spawn the server; logs go to stderr.
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createStdioFilter } from './stdio-filter.js';
import type { App } from './app.js';
import { createServer } from './server.js';

/** Serves one stdio connection; resolves when the client closes stdin. */
export function startStdio(app: App): Promise<void> {
  return new Promise((resolve) => {
    const input = process.stdin.pipe(createStdioFilter(process.stdout));
    const transport = new StdioServerTransport(input, process.stdout);
    const handle = serveStdio(() => createServer(app.deps, app.gates, app.tools, { transport: 'stdio' }), {
      transport,
      onerror: (err) => app.deps.logger.warn({ event: 'stdio_error', err: err.message }),
    });
    input.once('end', () => resolve());
    input.once('close', () => resolve());
    app.shutdown.signal.addEventListener('abort', () => {
      void handle.close().then(resolve);
    });
  });
}

// `workbench serve`
import type { Command } from 'commander';
import { loadOrCreateToken } from '../control/http/token.js';
import { startHttp } from '../control/http/server.js';
import { bootApp, fail, withGlobalFlags, type GlobalFlags } from './boot.js';

interface ServeFlags extends GlobalFlags {
  host?: string;
  port?: string;
  allowRemote?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Registers `workbench serve`. */
export function registerServe(program: Command): void {
  withGlobalFlags(program.command('serve').description('serve Streamable HTTP MCP at http://127.0.0.1:8010/mcp (bearer token required)'))
    .option('--host <host>', 'interface to bind (default 127.0.0.1)')
    .option('--port <port>', 'port (0 picks a free one; default 8010)')
    .option('--allow-remote', 'allow binding to a non-loopback address')
    .action(async (flags: ServeFlags) => {
      let app;
      let token: string;
      try {
        app = bootApp(flags);
        token = loadOrCreateToken(app.deps.runtime.stateDir);
      } catch (err) {
        fail((err as Error).message);
      }
      const cfg = app.deps.config.server;
      const host = flags.host ?? cfg.host;
      const port = flags.port !== undefined ? Number(flags.port) : cfg.port;
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535 (got ${flags.port})`);
      if (!LOOPBACK.has(host)) {
        if (!flags.allowRemote && !cfg.allow_remote) fail(`binding to ${host} exposes Workbench beyond this machine; pass --allow-remote if you really mean it`);
        process.stderr.write(`workbench: WARNING: serving on ${host}, reachable from other machines; anyone with the token can run commands here\n`);
      }
      let http;
      try {
        http = await startHttp(app, { host, port, token });
      } catch (err) {
        fail(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
      }
      process.stderr.write(`listening on ${http.url}\n`);
      const stop = async () => {
        app.deps.logger.info({ event: 'shutdown' });
        app.shutdown.abort();
        const timer = setTimeout(() => process.exit(0), 5000);
        await http.close();
        await app.deps.close();
        clearTimeout(timer);
        process.exit(0);
      };
      process.once('SIGTERM', () => void stop());
      process.once('SIGINT', () => void stop());
    });
}

// What `workbench serve` does: boot the app, check the bind address, listen, and stop on a signal.
import { loadOrCreateToken } from '../control/http/token.js';
import { startHttp } from '../control/http/server.js';
import { bootApp } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';

/** Flags of `workbench serve`. */
export interface ServeFlags extends GlobalFlags {
  host?: string;
  port?: string;
  allowRemote?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Serves Streamable HTTP until SIGTERM/SIGINT. */
export async function runServe(flags: ServeFlags): Promise<void> {
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
  // Announced only once the handlers are in place: a SIGTERM sent right after this line is handled.
  process.stderr.write(`listening on ${http.url}\n`);
}

// `workbench serve`: Streamable HTTP MCP at /mcp plus /health, behind the Host/Origin guard and the bearer token.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.js';
import { createMcpRoute } from './mcp-route.js';
import { checkBearer, checkHostAndOrigin } from './guard.js';
import { createRestRoutes } from './rest.js'; // issue 6: REST routes
import { createUfoRoute } from './ufo.js'; // issue 6: /ufo/mcp

export interface HttpOptions {
  host: string;
  port: number;
  token: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;

/** Starts listening; resolves with the server and the URL of the MCP endpoint. */
export async function startHttp(app: App, opts: HttpOptions, extraRoutes: Route[] = []): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  if (!opts.token) throw new Error('refusing to serve HTTP without an API token');
  const mcp = createMcpRoute(app);
  // issue 6: /metrics, /v1/action, /v1/commands behind the token; /ufo/mcp authenticates by its api_key argument.
  const routes: Route[] = [createRestRoutes(app), ...extraRoutes];
  const ufo = createUfoRoute(app, opts.token);
  let port = opts.port;
  const server = createHttpServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      app.deps.logger.error({ event: 'http_error', err: err.message });
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // issue 6 (fuzz): a malformed request target is a 400, not a 500.
    if (!URL.canParse(req.url ?? '/', 'http://localhost')) return refuse(req, res, 400, { error: 'malformed request target' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const guard = checkHostAndOrigin(req, port, opts.host);
    if (!guard.ok) return refuse(req, res, guard.status, { error: guard.message });
    if (url.pathname === '/health' && req.method === 'GET') return sendJson(res, 200, { status: 'ok', version: app.deps.version });
    // Workbench does no OAuth: a 404 here makes clients show the 401's own message instead of starting a flow.
    if (url.pathname.startsWith('/.well-known/oauth-')) return refuse(req, res, 404, { error: 'Workbench does not use OAuth; pass Authorization: Bearer <token> (`workbench token` prints it)' });
    if (await ufo.route(req, res, url)) return; // issue 6: after the Host/Origin guard, before the bearer check
    const auth = checkBearer(req, opts.token);
    if (!auth.ok) return refuse(req, res, auth.status, { error: auth.message }, { 'www-authenticate': 'Bearer' });
    for (const route of routes) if (await route(req, res, url)) return;
    if (url.pathname === '/mcp') return void (await mcp.handle(req, res));
    refuse(req, res, 404, { error: `no route ${req.method} ${url.pathname}` });
  };
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    server,
    url: `http://${shownHost}:${port}/mcp`,
    async close() {
      await mcp.close();
      await ufo.close(); // issue 6
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}


const DRAIN_MAX = 16 * 1024 * 1024;

/**
 * Answers a request refused before its body was read. The body is drained first (up to a bound):
 * answering while the client is still sending, then leaving unread bytes on a keep-alive socket,
 * resets the connection and the client never sees the answer.
 */
export async function refuse(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  if (!req.complete) {
    let seen = 0;
    await new Promise<void>((resolve) => {
      req.on('data', (c: Buffer) => {
        seen += c.length;
        if (seen > DRAIN_MAX) {
          req.destroy();
          resolve();
        }
      });
      req.once('end', resolve);
      req.once('close', resolve);
    });
  }
  if (!res.destroyed) sendJson(res, status, body, headers);
}

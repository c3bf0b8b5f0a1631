// `workbench serve`: Streamable HTTP MCP at /mcp plus /health, behind the Host/Origin guard and the bearer token.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { App } from '../app.js';
import { createServer } from '../server.js';
import { checkBearer, checkHostAndOrigin } from './guard.js';

export interface HttpOptions {
  host: string;
  port: number;
  token: string;
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;

/** Starts listening; resolves with the server and the URL of the MCP endpoint. */
export async function startHttp(app: App, opts: HttpOptions, extraRoutes: Route[] = []): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  if (!opts.token) throw new Error('refusing to serve HTTP without an API token');
  const mcp = createMcpHandler((ctx) => createServer(app.deps, app.gates, app.tools, { transport: 'http', sessionId: ctx.requestInfo?.headers.get('mcp-session-id') ?? undefined }), {
    onerror: (err) => app.deps.logger.debug({ event: 'mcp_http_error', err: err.message }),
  });
  const nodeMcp = toNodeHandler(mcp);
  let port = opts.port;
  const server = createHttpServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      app.deps.logger.error({ event: 'http_error', err: err.message });
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const guard = checkHostAndOrigin(req, port, opts.host);
    if (!guard.ok) return sendJson(res, guard.status, { error: guard.message });
    if (url.pathname === '/health' && req.method === 'GET') return sendJson(res, 200, { status: 'ok', version: app.deps.version });
    const auth = checkBearer(req, opts.token);
    if (!auth.ok) return sendJson(res, auth.status, { error: auth.message }, { 'www-authenticate': 'Bearer' });
    for (const route of extraRoutes) if (await route(req, res, url)) return;
    if (url.pathname === '/mcp') return void (await nodeMcp(req, res));
    sendJson(res, 404, { error: `no route ${req.method} ${url.pathname}` });
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

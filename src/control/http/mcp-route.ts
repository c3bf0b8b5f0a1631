// The /mcp route: the SDK's Streamable HTTP handler, plus what stateless serving lacks on its own —
// a per-exchange abort signal, so `notifications/cancelled` (which arrives as a separate POST) and a
// client disconnect both kill the command tree of the call they name.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpRequestContext } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { App } from '../app.js';
import { createServer } from '../server.js';
import { InflightCalls } from './inflight.js';
import { readMcpBody } from './read-mcp-body.js';

export const MAX_MCP_BODY = 4 * 1024 * 1024;

/** Builds the /mcp handler for one HTTP server. */
export function createMcpRoute(app: App): { handle(req: IncomingMessage, res: ServerResponse): Promise<void>; close(): Promise<void> } {
  const exchange = new AsyncLocalStorage<AbortSignal>();
  const inflight = new InflightCalls();
  const factory = (ctx: McpRequestContext) =>
    createServer(app.deps, app.gates, app.tools, {
      transport: 'http',
      sessionId: ctx.requestInfo?.headers.get('mcp-session-id') ?? undefined,
      signal: exchange.getStore(),
    });
  const mcp = createMcpHandler(factory, {
    maxRequestBodySize: MAX_MCP_BODY,
    onerror: (err) => app.deps.logger.debug({ event: 'mcp_http_error', err: err.message }),
  });
  const nodeMcp = toNodeHandler(mcp);
  return {
    async handle(req, res) {
      if (req.method !== 'POST') return void (await nodeMcp(req, res));
      const body = await readMcpBody(req, res, MAX_MCP_BODY);
      if (body === undefined) return;
      const scope = String(req.headers['mcp-session-id'] ?? '');
      inflight.cancelFrom(scope, body.value);
      const ac = new AbortController();
      const release = inflight.track(scope, body.value, ac);
      res.once('close', () => {
        release();
        if (!res.writableFinished) ac.abort(new Error('client disconnected'));
      });
      const signal = AbortSignal.any([ac.signal, app.shutdown.signal]);
      await exchange.run(signal, () => nodeMcp(req, res, body.value));
    },
    close: () => mcp.close(),
  };
}

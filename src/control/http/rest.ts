// REST routes next to /mcp: GET /metrics, POST /v1/action, POST /v1/commands (SPEC §5). Auth runs before them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import { invokeTool } from '../invoke.js';
import type { ToolDef } from '../tool.js';
import { describe, isBusy, isRecord, MAX_BATCH, runBatch } from './batch.js';
import { createControlMetrics, type ControlMetrics } from './metrics.js';
import { readJsonBody } from './read-body.js';
import { refuse, sendJson, type Route } from './server.js';

/** Seconds a refused caller should wait before retrying (the queue drains in about this time). */
const RETRY_AFTER_S = '1';

interface RestContext {
  app: App;
  tools: Map<string, ToolDef>;
  metrics: ControlMetrics;
}

/** The REST routes of one app, as one Route for startHttp. */
export function createRestRoutes(app: App): Route {
  const ctx: RestContext = { app, tools: new Map(app.tools.map((t) => [t.name, t])), metrics: createControlMetrics(app) };
  const table: Record<string, [string, (c: RestContext, req: IncomingMessage, res: ServerResponse) => Promise<void>]> = {
    '/metrics': ['GET', serveMetrics],
    '/v1/action': ['POST', serveAction],
    '/v1/commands': ['POST', serveCommands],
  };
  return async (req, res, url) => {
    const entry = table[url.pathname];
    if (!entry) return false;
    const [method, handler] = entry;
    if (req.method !== method) {
      await refuse(req, res, 405, { error: `${url.pathname} answers ${method} only` }, { allow: method });
      return true;
    }
    await handler(ctx, req, res);
    return true;
  };
}

async function serveMetrics(ctx: RestContext, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await ctx.metrics.render();
  res.writeHead(200, { 'content-type': ctx.metrics.contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function serveAction(ctx: RestContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBodyOrAnswer(req, res);
  if (body === undefined) return;
  if (!isRecord(body) || typeof body.action !== 'string' || body.action === '') {
    return sendJson(res, 400, { error: `expected {"action": "<tool name>", "parameters": {…}}; action is ${describe(isRecord(body) ? body.action : body)}` });
  }
  const params = body.parameters;
  if (params !== undefined && params !== null && !isRecord(params)) {
    return sendJson(res, 400, { error: `parameters must be an object (got ${describe(params)})` });
  }
  const def = ctx.tools.get(body.action);
  if (!def) return sendJson(res, 404, { error: `unknown action ${JSON.stringify(body.action.slice(0, 100))}; it must be a tool name from tools/list` });
  const requestId = requestIdOf(req);
  const wire = await invokeTool(ctx.app.deps, ctx.app.gates, def, params ?? {}, { transport: 'rest', requestId, signal: abortOnClose(res) });
  if (isBusy(wire)) return sendJson(res, 429, wire.structuredContent, { 'retry-after': RETRY_AFTER_S, 'x-request-id': requestId });
  sendJson(res, 200, wire.structuredContent, { 'x-request-id': requestId });
}

async function serveCommands(ctx: RestContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBodyOrAnswer(req, res);
  if (body === undefined) return;
  if (!Array.isArray(body)) return sendJson(res, 400, { error: `expected a JSON array of {tool_name, parameters, call_id}; got ${describe(body)}` });
  if (body.length > MAX_BATCH) return sendJson(res, 400, { error: `${body.length} commands is over the limit of ${MAX_BATCH} per batch; split the batch` });
  const requestId = requestIdOf(req);
  const { answers, busy } = await runBatch(ctx.app, ctx.tools, body, { requestId, signal: abortOnClose(res) });
  sendJson(res, 200, answers, { 'x-request-id': requestId, ...(busy ? { 'retry-after': RETRY_AFTER_S } : {}) });
}

/** The parsed body, or undefined after answering 400/413 (or nothing, when the client is gone). */
async function readBodyOrAnswer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const body = await readJsonBody(req);
  if (body.ok) return body.value;
  if (body.status === 499) return undefined;
  // After a 413, Node discards the rest of the body and keeps the connection (closing with unread
  // data would reset it and could lose the answer).
  sendJson(res, body.status, { error: body.message });
  return undefined;
}

/** Aborted when the client goes away before the answer is written (the tool's process tree is then killed). */
function abortOnClose(res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** A caller-supplied X-Request-Id when it is short and plain, else a fresh one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

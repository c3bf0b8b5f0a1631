// /ufo/mcp: only the two UFO tools, authenticated by their `api_key` argument instead of the bearer
// header (UFO's client cannot send one). Routed after the Host/Origin guard, before the bearer check,
// so nothing else is served there: no resources, no prompts — only initialize, ping, tools/list
// and tools/call, whose handlers refuse a missing or wrong api_key before doing anything.
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { App } from '../app.js';
import { assertApiKey } from '../compat/ufo-auth.js';
import { createServer } from '../server.js';
import type { ToolDef } from '../tool.js';
import { UFO_TOOL_NAMES } from '../tools/ufo.js';
import { MAX_MCP_BODY } from './mcp-route.js';
import { readMcpBody } from './read-mcp-body.js';
import type { Route } from './server.js';

export const UFO_PATH = '/ufo/mcp';

/** The /ufo/mcp route (answers nothing when [compat] ufo is off) and its close hook. */
export function createUfoRoute(app: App, token: string): { route: Route; close(): Promise<void> } {
  const tools = app.tools.filter((t) => (UFO_TOOL_NAMES as readonly string[]).includes(t.name)).map((t) => requireApiKey(t, token));
  if (tools.length === 0) return { route: () => false, close: async () => {} };
  const mcp = createMcpHandler(
    (ctx) => createServer(app.deps, app.gates, tools, { transport: 'http', sessionId: ctx.requestInfo?.headers.get('mcp-session-id') ?? undefined, resources: false }),
    { maxRequestBodySize: MAX_MCP_BODY, onerror: (err) => app.deps.logger.debug({ event: 'ufo_http_error', err: err.message }) },
  );
  const node = toNodeHandler(mcp);
  return {
    route: async (req, res, url) => {
      if (url.pathname !== UFO_PATH) return false;
      if (req.method !== 'POST') {
        await node(req, res);
        return true;
      }
      // Parsed (bounded, depth-checked) here: a bad body is a 400 JSON-RPC error, never a 500.
      const body = await readMcpBody(req, res, MAX_MCP_BODY);
      if (body !== undefined) await node(req, res, body.value);
      return true;
    },
    close: () => mcp.close(),
  };
}

/**
 * The same tool, refusing any call whose api_key does not match the token (fail-closed, constant
 * time); the key is dropped before the tool's own handler sees the arguments.
 */
function requireApiKey(def: ToolDef, token: string): ToolDef {
  return {
    ...def,
    description: `${def.description} Requires api_key.`,
    handler: async (args, ctx) => {
      assertApiKey(args.api_key, token);
      const { api_key: _key, ...rest } = args;
      return def.handler(rest, ctx);
    },
  };
}

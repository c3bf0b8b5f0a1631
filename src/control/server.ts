// The MCP server factory: one McpServer per connection (stdio) or per request (HTTP), all sharing deps.
import { McpServer } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { AppDeps } from './deps.js';
import { outputSchemaFor } from './envelope.js';
import { invokeTool, type Gates } from './invoke.js';
import type { ToolContext, ToolDef } from './tool.js';

export interface ServerOptions {
  transport: ToolContext['transport'];
  sessionId?: string;
}

const INSTRUCTIONS =
  'Workbench runs structured actions on this machine inside a policy and sandbox. Use run_command for short commands (≤30 s), job_* for long work, and the read-only adapters (read_file, list_files, file_search, …) instead of shell text parsing.';

/** Creates a server instance with every enabled tool registered. */
export function createServer(deps: AppDeps, gates: Gates, tools: ToolDef[], opts: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'workbench', version: deps.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  for (const def of tools) {
    server.registerTool(
      def.name,
      {
        title: def.title,
        description: def.description,
        inputSchema: advertisedOnly(def.input),
        outputSchema: outputSchemaFor(def),
        annotations: def.annotations,
      },
      async (args: unknown, ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) =>
        invokeTool(deps, gates, def, args, {
          transport: opts.transport,
          sessionId: opts.sessionId,
          requestId: String(ctx.mcpReq.id),
          signal: ctx.mcpReq.signal,
        }),
    );
  }
  return server;
}

/**
 * Advertises the tool's JSON Schema but lets every value through to our own validation, so a
 * rejected argument becomes an `invalid_params` envelope naming the field (SPEC §2) rather than
 * the SDK's generic text. The schema is compacted: no $schema, no safe-integer bounds.
 */
function advertisedOnly(schema: z.ZodObject) {
  const std = schema['~standard'] as unknown as { jsonSchema: { input: (o: unknown) => Record<string, unknown>; output: (o: unknown) => Record<string, unknown> } };
  const compact = (o: unknown) => stripNoise(std.jsonSchema.input(o));
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'workbench',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: compact, output: compact },
    },
  };
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function stripNoise(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if ((k === 'minimum' && v === -MAX_SAFE) || (k === 'maximum' && v === MAX_SAFE)) continue;
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = Array.isArray(v) ? v.map((x) => (isObj(x) ? stripNoise(x) : x)) : isObj(v) ? stripNoise(v) : v;
  }
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

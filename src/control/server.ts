// The MCP server factory: one McpServer per connection (stdio) or per request (HTTP), all sharing deps.
import { McpServer } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { AppDeps } from './deps.js';
import { outputSchemaFor } from './envelope.js';
import { invokeTool, type Gates } from './invoke.js';
import type { ToolContext, ToolDef } from './tool.js';
import { registerJobResources } from './tools/jobs.js';

export interface ServerOptions {
  transport: ToolContext['transport'];
  sessionId?: string;
  /** Aborts every call of this instance (HTTP client disconnect, server shutdown). */
  signal?: AbortSignal;
  /** Serve the job-log resources (default true). /ufo/mcp serves its two tools and nothing else. */
  resources?: boolean;
}

const INSTRUCTIONS =
  'Workbench runs structured actions on this machine inside a policy and sandbox. Use run_command for short commands (≤30 s), job_* for long work, and the read-only adapters (read_file, list_files, file_search, …) instead of shell text parsing.';

/** Creates a server instance with every enabled tool registered. */
export function createServer(deps: AppDeps, gates: Gates, tools: ToolDef[], opts: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'workbench', version: deps.version },
    { capabilities: opts.resources === false ? { tools: {} } : { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  for (const def of tools) {
    server.registerTool(
      def.name,
      {
        title: def.title,
        description: def.description,
        inputSchema: advertisedOnly(() => def.input),
        outputSchema: advertisedOnly(() => outputSchemaFor(def), shallow),
        annotations: compactAnnotations(def),
      },
      async (args: unknown, ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) =>
        invokeTool(deps, gates, def, args, {
          transport: opts.transport,
          sessionId: opts.sessionId,
          requestId: String(ctx.mcpReq.id),
          signal: opts.signal ? AbortSignal.any([ctx.mcpReq.signal, opts.signal]) : ctx.mcpReq.signal,
        }),
    );
  }
  if (opts.resources !== false) registerJobResources(server, deps);
  return server;
}

/**
 * Advertises the tool's JSON Schema but lets every value through to our own validation, so a
 * rejected argument becomes an `invalid_params` envelope naming the field (SPEC §2) rather than
 * the SDK's generic text. The schema is compacted: no $schema, no safe-integer bounds.
 */
function advertisedOnly(schema: () => z.ZodObject, shape: (s: Record<string, unknown>) => Record<string, unknown> = stripNoise) {
  type Std = { jsonSchema: { input: (o: unknown) => Record<string, unknown> } };
  // The zod schema is built only when the SDK asks for JSON Schema (tools/list), not at registration.
  const compact = (o: unknown) => shape((schema()['~standard'] as unknown as Std).jsonSchema.input(o));
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

/**
 * Output schemas are advertised as the envelope only (`success`, plus `error`/`error_class` on
 * failure — SPEC §2): every tool's schema is paid for in every model context (the whole list
 * stays under 20 KB), while each structured result describes itself and the tool descriptions
 * name the key fields. The full zod output shapes still document every field in the source.
 */
function shallow(): Record<string, unknown> {
  return { type: 'object', required: ['success'] };
}

function stripNoise(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if ((k === 'minimum' && v === -MAX_SAFE) || (k === 'maximum' && v === MAX_SAFE)) continue;
    if ((k === 'additionalProperties' && v === false) || k === 'propertyNames') continue;
    if (k === 'maxLength' && typeof v === 'number' && v >= 1000) continue;
    if ((k === 'default' && v === false) || (k === 'exclusiveMinimum' && v === 0)) continue;
    out[k] = Array.isArray(v) ? v.map((x) => (isObj(x) ? stripNoise(x) : x)) : isObj(v) ? stripNoise(v) : v;
  }
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** destructiveHint means nothing for a read-only tool (MCP), so it is left out there. */
function compactAnnotations(def: ToolDef): Record<string, boolean> {
  const { destructiveHint, ...rest } = def.annotations;
  return def.annotations.readOnlyHint ? rest : { ...rest, destructiveHint };
}

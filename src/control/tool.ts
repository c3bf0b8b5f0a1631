// What a tool is: its schemas, its description for the model, and a handler into the plane below.
import type { z } from 'zod';
import type { ErrorClass } from '../shared/errors.js';

/** Per-call facts a handler may use. */
export interface ToolContext {
  /** Aborted when the client cancels the call or the server shuts down. */
  signal: AbortSignal;
  requestId: string;
  sessionId?: string;
  transport: 'stdio' | 'http' | 'rest' | 'task' | 'memory';
}

/**
 * What a handler returns. `data` is spread into structuredContent next to `success`.
 * `failure` marks a result that is data but not a success (a command that exited non-zero):
 * isError stays false. Anything that could not be carried out is thrown as AppError instead.
 */
export interface ToolOutcome<T extends Record<string, unknown> = Record<string, unknown>> {
  data: T;
  failure?: { error: string; errorClass: ErrorClass };
  /** True when any part of the result was cut to fit a budget (logged and audited). */
  truncated?: boolean;
  /** Optional text rendering; the default is compact JSON of the structured result. */
  text?: string;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
  idempotentHint?: boolean;
}

/** A tool definition. Input is validated by Workbench itself so errors name the field. */
export interface ToolDef<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description: string;
  input: I;
  /** Fields of a successful result (made optional in the advertised schema, since failures carry only the envelope). */
  output: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** `status` calls (cheap reads of state) use the separate, larger lane of the gate. */
  lane?: 'main' | 'status';
  /** Whether re-running after a crash is harmless (scheduler crash rule). Defaults to annotations.readOnlyHint. */
  rerunSafe?: (args: z.infer<I>) => boolean;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<ToolOutcome>;
}

/** The schemas of a definition, built on first use (tools/list or the first call), not at start-up. */
export type ToolSchemas<I extends z.ZodObject> = () => { input: I; output: z.ZodRawShape };

/** A definition whose input and output schemas are built lazily by `schemas`. */
export type LazyToolDef<I extends z.ZodObject> = Omit<ToolDef<I>, 'input' | 'output'> & { schemas: ToolSchemas<I> };

/**
 * Keeps the generic type of a definition while erasing it for the registry. With `schemas`, the
 * result's `input` and `output` are getters that build the zod schemas once, on first read.
 */
export function defineTool<I extends z.ZodObject>(def: LazyToolDef<I>): ToolDef;
export function defineTool<I extends z.ZodObject>(def: ToolDef<I>): ToolDef;
export function defineTool<I extends z.ZodObject>(def: ToolDef<I> | LazyToolDef<I>): ToolDef {
  if (!('schemas' in def)) return def as unknown as ToolDef;
  const { schemas, ...rest } = def;
  let built: ReturnType<ToolSchemas<I>> | undefined;
  const get = () => (built ??= schemas());
  return Object.defineProperties(rest, {
    input: { get: () => get().input, enumerable: true },
    output: { get: () => get().output, enumerable: true },
  }) as unknown as ToolDef;
}

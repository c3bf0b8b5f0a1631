// The one place that turns outcomes and errors into MCP tool results (SPEC §2), and so the one
// place tool results are redacted: structured content and text alike pass the server's redactor.
import { z } from 'zod';
import type { Redactor } from '../policy/redact.js';
import { AppError, ERROR_CLASSES, toAppError } from '../shared/errors.js';
import type { ToolDef, ToolOutcome } from './tool.js';

export interface WireResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

const envelopeFields = {
  success: z.boolean(),
  error: z.string().optional(),
  error_class: z.enum(ERROR_CLASSES).optional(),
  rule: z.string().optional(),
};

/** The advertised outputSchema: the envelope plus the tool's fields, optional because failures omit them. */
export function outputSchemaFor(def: ToolDef): z.ZodObject {
  const fields: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(def.output)) fields[key] = (schema as z.ZodType).optional();
  return z.object({ ...envelopeFields, ...fields });
}

/** A result the tool produced: success, or a failure that is data (isError false); secrets redacted. */
export function outcomeResult(outcome: ToolOutcome, redactor: Redactor): WireResult {
  const raw: Record<string, unknown> = outcome.failure
    ? { success: false, error: outcome.failure.error, error_class: outcome.failure.errorClass, ...outcome.data }
    : { success: true, ...outcome.data };
  const structured = redactor.value(raw);
  const text = outcome.text === undefined ? JSON.stringify(structured) : redactor.text(outcome.text);
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: false };
}

/** A request that could not be carried out (isError true); secrets redacted. Unknown errors become `internal`. */
export function errorResult(err: unknown, redactor: Redactor): WireResult {
  const app = toAppError(err);
  const message = redactor.text(app.hint ? `${app.message}; ${app.hint}` : app.message);
  const structured: Record<string, unknown> = { ...(app.details ? (redactor.value(app.details) as Record<string, unknown>) : {}), success: false, error: message, error_class: app.errorClass };
  if (app.rule) structured.rule = app.rule;
  const text = `error (${app.errorClass}${app.rule ? `, rule ${app.rule}` : ''}): ${message}`;
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: true };
}

/** Parses raw arguments with the tool's schema; a rejection names the field and what was expected. */
export function parseArgs(def: ToolDef, raw: unknown): Record<string, unknown> {
  const result = def.input.safeParse(raw ?? {});
  if (result.success) return result.data as Record<string, unknown>;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
  const detail =
    issue.code === 'unrecognized_keys'
      ? `unknown parameter ${issue.keys.map((k) => `'${k}'`).join(', ')}`
      : `'${field}': ${issue.message}`;
  throw new AppError('invalid_params', `invalid arguments for ${def.name}: ${detail}`);
}

export { AppError };

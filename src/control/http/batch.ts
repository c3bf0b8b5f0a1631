// POST /v1/commands: a batch of tool calls run one after another, answered per call_id in order.
import type { App } from '../app.js';
import type { WireResult } from '../envelope.js';
import { invokeTool } from '../invoke.js';
import type { ToolDef } from '../tool.js';

/** At most this many commands per batch (a larger batch is a 400). */
export const MAX_BATCH = 100;

type CallId = string | number | null;

/** One answer of a batch, in the order of the request. */
export interface BatchAnswer {
  call_id: CallId;
  status: 'success' | 'failure' | 'skipped';
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface BatchOptions {
  requestId: string;
  signal: AbortSignal;
}

/**
 * Runs the items in order. An item with a bad shape or an unknown tool is a `failure` and the
 * batch goes on; once an item is refused `busy` (or the client goes away) every later item is
 * `skipped` without running, so a retry can resend exactly the skipped ones.
 */
export async function runBatch(app: App, tools: Map<string, ToolDef>, items: unknown[], opts: BatchOptions): Promise<{ answers: BatchAnswer[]; busy: boolean }> {
  const answers: BatchAnswer[] = [];
  let stop: string | undefined;
  for (const [index, item] of items.entries()) {
    const callId = callIdOf(item);
    if (stop ?? opts.signal.aborted) {
      answers.push({ call_id: callId, status: 'skipped', result: null, error: stop ?? 'not run: the client closed the request' });
      continue;
    }
    const parsed = parseItem(item, tools);
    if ('error' in parsed) {
      answers.push({ call_id: callId, status: 'failure', result: null, error: `command ${index}: ${parsed.error}` });
      continue;
    }
    const wire = await invokeTool(app.deps, app.gates, parsed.def, parsed.parameters, {
      transport: 'rest',
      requestId: `${opts.requestId}.${index}`,
      signal: opts.signal,
    });
    answers.push(answerOf(callId, wire));
    if (isBusy(wire)) stop = `not run: call ${JSON.stringify(callId)} before it was refused as busy; resend the skipped commands in a second`;
  }
  return { answers, busy: stop !== undefined };
}

/** True when the gate refused the call. */
export function isBusy(wire: WireResult): boolean {
  return wire.isError && wire.structuredContent.error_class === 'busy';
}

function answerOf(callId: CallId, wire: WireResult): BatchAnswer {
  const s = wire.structuredContent;
  const ok = s.success === true;
  return { call_id: callId, status: ok ? 'success' : 'failure', result: s, error: ok ? null : typeof s.error === 'string' ? s.error : 'failed' };
}

function callIdOf(item: unknown): CallId {
  const id = isRecord(item) ? item.call_id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function parseItem(item: unknown, tools: Map<string, ToolDef>): { def: ToolDef; parameters: unknown } | { error: string } {
  if (!isRecord(item)) return { error: 'each command must be an object {tool_name, parameters, call_id}' };
  const { tool_name: name, parameters, call_id: id, tool_type: type } = item;
  if (callIdOf(item) === null) return { error: `call_id must be a string or a number (got ${describe(id)})` };
  if (typeof name !== 'string' || name === '') return { error: `tool_name must be a non-empty string (got ${describe(name)})` };
  if (type !== undefined && typeof type !== 'string') return { error: `tool_type must be a string when given (got ${describe(type)})` };
  if (parameters !== undefined && parameters !== null && !isRecord(parameters)) return { error: `parameters must be an object (got ${describe(parameters)})` };
  const def = tools.get(name);
  if (!def) return { error: `unknown tool ${JSON.stringify(name.slice(0, 100))}; see tools/list for the names` };
  return { def, parameters: parameters ?? {} };
}

/** A short type name for error messages. */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** A plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

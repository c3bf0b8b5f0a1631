// The single path every tool call takes, whatever the transport: gate → validate → handler →
// envelope, with one log line and one audit row per call.
import type { AppDeps } from './deps.js';
import { errorResult, outcomeResult, parseArgs, type WireResult } from './envelope.js';
import type { Gate } from './gate.js';
import { serverRedactor } from './redaction.js';
import type { ToolContext, ToolDef } from './tool.js';
import { AppError } from '../shared/errors.js';

export interface Gates {
  main: Gate;
  status: Gate;
}

/** A finished call, as seen by observers such as the HTTP metrics (per app, never module state). */
export interface CallEvent {
  tool: string;
  lane: 'main' | 'status';
  outcome: 'success' | 'failure' | 'error';
  errorClass?: string;
  durationMs: number;
}

/** The observers of finished calls for one app (metrics hook; registered by src/control/http/metrics.ts). */
export function callObservers(deps: AppDeps): Array<(e: CallEvent) => void> {
  return deps.service('call-observers', () => [] as Array<(e: CallEvent) => void>);
}

export interface CallInfo {
  transport: ToolContext['transport'];
  requestId?: string;
  sessionId?: string;
  signal?: AbortSignal;
}

/** Runs one tool call to completion and returns the wire result; never throws. */
export async function invokeTool(deps: AppDeps, gates: Gates, def: ToolDef, rawArgs: unknown, info: CallInfo): Promise<WireResult> {
  const requestId = info.requestId ?? crypto.randomUUID(); // the global: node:crypto loads on first call, not at start-up
  const startedAt = new Date();
  const t0 = performance.now();
  const base = { requestId, sessionId: info.sessionId, tool: def.name, transport: info.transport };
  deps.logger.info({ event: 'tool_start', ...base, ...(deps.config.log.args ? { args: redactArgs(rawArgs) } : {}) });
  let result: WireResult;
  let release: (() => void) | undefined;
  let truncated = false;
  try {
    const signal = info.signal ?? new AbortController().signal;
    release = await (def.lane === 'status' ? gates.status : gates.main).acquire(signal);
    const args = parseArgs(def, rawArgs);
    await deps.loadCapabilities(); // once per process; later calls get the settled promise
    const outcome = await def.handler(args, { signal, requestId, sessionId: info.sessionId, transport: info.transport });
    truncated = outcome.truncated === true;
    result = outcomeResult(outcome, serverRedactor(deps));
  } catch (err) {
    result = errorResult(err, serverRedactor(deps));
    if (!(err instanceof AppError)) deps.logger.error({ event: 'tool_internal_error', ...base, err });
  } finally {
    release?.();
  }
  record(deps, result, { ...base, lane: def.lane ?? 'main', truncated, startedAt, durationMs: performance.now() - t0, rawArgs });
  return result;
}

interface RecordInfo {
  requestId: string;
  sessionId?: string;
  tool: string;
  transport: string;
  lane: 'main' | 'status';
  /** The handler said it cut something to fit a budget. */
  truncated: boolean;
  startedAt: Date;
  durationMs: number;
  rawArgs: unknown;
}

function record(deps: AppDeps, result: WireResult, info: RecordInfo): void {
  const s = result.structuredContent;
  const resultBytes = Buffer.byteLength(result.content[0]?.text ?? '');
  const truncated = info.truncated || Object.entries(s).some(([k, v]) => (k === 'truncated' || k.endsWith('_truncated') || k === 'partial') && v === true);
  const outcome = result.isError ? 'error' : s.success ? 'success' : 'failure';
  const errorClass = typeof s.error_class === 'string' ? s.error_class : undefined;
  const durationMs = Math.round(info.durationMs * 100) / 100;
  const event = outcome === 'error' ? 'tool_fail' : 'tool_end';
  const { rawArgs, startedAt, lane, truncated: _t, ...base } = info;
  deps.logger.info({ event, ...base, durationMs, outcome, errorClass, resultBytes, truncated });
  for (const observe of callObservers(deps)) observe({ tool: info.tool, lane, outcome, errorClass, durationMs });
  try {
    deps.store().audit.insert({
      ...base,
      startedAt: startedAt.toISOString(),
      durationMs,
      outcome,
      errorClass,
      resultBytes,
      truncated,
      args: deps.config.log.args ? JSON.stringify(serverRedactor(deps).value(redactArgs(rawArgs))) : undefined,
    });
  } catch (err) {
    deps.logger.error({ event: 'audit_failed', err: (err as Error).message });
  }
}

const SECRET_ARG = /^(api_?key|token|password|passwd|secret|authorization)$/i;

/** Top-level secret-looking arguments (e.g. UFO's api_key) are never logged, even with log.args = true. */
function redactArgs(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, SECRET_ARG.test(k) ? '[redacted]' : v]));
}

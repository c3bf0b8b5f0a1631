// Saved results by reference (SPEC §4.1a, scheduler.max_context_bytes). A large step result is
// stored once, in its own row; the step row keeps a bounded preview. A save_as writes one context
// entry: the value when the context stays within its bound, else a reference to the stored result
// that `{{context.key.…}}` still resolves (hydrateRefs). Nothing rewrites the whole context.
import type { TaskStore } from './env.js';
import { ROW_INLINE_BYTES } from './task-limits.js';
import type { StepRecord, TaskContext } from './types.js';

const PREVIEW_BYTES = 2048;
const CONTEXT_PREVIEW_BYTES = 512;
// About the size of a reference without its preview (the note, the step id, the numbers).
const REF_OVERHEAD = 512;

/** What a step row stores for `result`, and the full JSON to store apart when it is too large for the row. */
export interface RowResult {
  value: unknown;
  json: string | null;
  apart: boolean;
}

/** The step row's value: the result itself up to ROW_INLINE_BYTES, else a preview with a reference. */
export function rowResultOf(step: StepRecord, result: unknown): RowResult {
  if (result === null || result === undefined) return { value: result ?? null, json: null, apart: false };
  const json = JSON.stringify(result);
  const bytes = Buffer.byteLength(json);
  if (bytes <= ROW_INLINE_BYTES) return { value: result, json, apart: false };
  const value = {
    $ref: step.id, bytes, truncated: true, preview: preview(json),
    note: `the full result (${bytes} bytes) is stored once with step ${step.stepNumber}; ${step.saveAs ? `{{context.${step.saveAs}.…}} resolves against it` : 'save it with save_as to use it in a later step'}`,
  };
  return { value, json, apart: true };
}

/** Saves a step's result under `step.saveAs`: inline while the context stays within max_context_bytes, else by reference. */
export function saveToContext(store: TaskStore, step: StepRecord, row: RowResult): void {
  const key = step.saveAs!;
  const bytes = Buffer.byteLength(row.json!);
  const max = store.limits.maxContextBytes;
  const others = store.outputs.contextBytes(step.taskId, key);
  if (others + bytes <= max) {
    store.outputs.putEntry(step.taskId, { key, value: row.json!, bytes, stepId: step.id });
    return;
  }
  // The preview shrinks to what the bound leaves (none once it is reached); the reference itself stays.
  const room = Math.max(0, max - others - REF_OVERHEAD);
  const ref = {
    $ref: step.id, bytes, truncated_in_context: true, preview: preview(row.json!, Math.min(CONTEXT_PREVIEW_BYTES, room)),
    note: `over scheduler.max_context_bytes (${max}): kept by reference; {{context.${key}.…}} resolves against the full result of step ${step.stepNumber}`,
  };
  const value = JSON.stringify(ref);
  // A value no larger than its reference would be is kept as it is: the reference would not save a byte.
  const inline = bytes <= Buffer.byteLength(value);
  store.outputs.putEntry(step.taskId, inline ? { key, value: row.json!, bytes, stepId: step.id } : { key, value, bytes: Buffer.byteLength(value), stepId: step.id });
}

/**
 * A copy of `ctx` in which every top-level reference that `params` uses is replaced by the full
 * stored result. Only references to steps of this task are followed; others stay as they are.
 */
export function hydrateRefs(store: TaskStore, taskId: string, ctx: TaskContext, params: unknown): TaskContext {
  const out = { ...ctx };
  for (const key of referencedKeys(params)) {
    const v = out[key] as { $ref?: unknown } | null | undefined;
    if (!v || typeof v !== 'object' || typeof v.$ref !== 'string' || !v.$ref.startsWith(`${taskId}.`)) continue;
    const full = fullResult(store, v.$ref);
    if (full !== undefined) out[key] = full;
  }
  return out;
}

/** The full result of a step: its stored output, else its row's result. */
function fullResult(store: TaskStore, stepId: string): unknown {
  const apart = store.outputs.output(stepId);
  if (apart !== undefined) return JSON.parse(apart) as unknown;
  const row = store.steps.get(stepId)?.result as { $ref?: unknown } | null | undefined;
  return row === null || row === undefined || (typeof row === 'object' && '$ref' in row) ? undefined : row;
}

/** Top-level context keys named by `{{context.key…}}` anywhere in `params`. */
export function referencedKeys(params: unknown): Set<string> {
  const text = JSON.stringify(params ?? null);
  const keys = new Set<string>();
  for (const m of text.matchAll(/\{\{\s*context\.([^{}\s.[\]]+)/g)) keys.add(m[1]!);
  return keys;
}

function preview(json: string, bytes = PREVIEW_BYTES): string {
  return Buffer.from(json).subarray(0, bytes).toString('utf8');
}

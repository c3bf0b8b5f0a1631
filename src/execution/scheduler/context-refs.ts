// Resolves {{context.key.path}} references in step parameters against the task context.
import type { TaskContext } from './types.js';

const WHOLE = /^\{\{\s*context\.([^{}\s]+)\s*\}\}$/;
const ANY = /\{\{\s*context\.([^{}\s]+)\s*\}\}/g;

/** A reference that names nothing in the context; the step fails with this message. */
export class MissingContextError extends Error {
  constructor(readonly reference: string, readonly field: string) {
    super(`parameter '${field}' references {{context.${reference}}}, which is not in the task context; check the save_as of an earlier step or pass it in context`);
    this.name = 'MissingContextError';
  }
}

export interface ResolveOptions {
  /** Keys an earlier step will save (dry run): references to them stay as literal placeholders. */
  placeholders?: ReadonlySet<string>;
}

/** Looks up `a.b.0.c` in the context; undefined when any segment is missing. */
export function lookupPath(ctx: TaskContext, path: string): unknown {
  let cur: unknown = ctx;
  for (const seg of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** Returns a copy of `value` with every reference replaced; a whole-string reference keeps its JSON type. */
export function resolveRefs(value: unknown, ctx: TaskContext, opts: ResolveOptions = {}, field = ''): unknown {
  if (typeof value === 'string') return resolveString(value, ctx, opts, field);
  if (Array.isArray(value)) return value.map((v, i) => resolveRefs(v, ctx, opts, `${field}[${i}]`));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveRefs(v, ctx, opts, field ? `${field}.${k}` : k);
    return out;
  }
  return value;
}

function resolveString(s: string, ctx: TaskContext, opts: ResolveOptions, field: string): unknown {
  const whole = WHOLE.exec(s);
  if (whole) return lookupOrThrow(whole[1]!, ctx, opts, field);
  return s.replace(ANY, (_m, ref: string) => {
    const v = lookupOrThrow(ref, ctx, opts, field);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function lookupOrThrow(ref: string, ctx: TaskContext, opts: ResolveOptions, field: string): unknown {
  const v = lookupPath(ctx, ref);
  if (v !== undefined) return v;
  if (opts.placeholders?.has(ref.split(/[.[]/)[0]!)) return `{{context.${ref}}}`;
  throw new MissingContextError(ref, field || 'parameters');
}

/** True when any string inside `value` holds a context reference. */
export function hasRefs(value: unknown): boolean {
  return /\{\{\s*context\./.test(JSON.stringify(value ?? null));
}

// Resolves {{context.key.path}} references in step parameters against the task context.
// Command strings are not resolved here: command-template.ts tokenizes them first.
import { AppError } from '../../shared/errors.js';
import type { TaskContext } from './types.js';

const WHOLE = /^\{\{\s*context\.([^{}\s]+)\s*\}\}$/;

/** Matches one reference; group 1 is the path after `context.`. Use with a fresh `g` regex per scan. */
export const REF_SOURCE = String.raw`\{\{\s*context\.([^{}\s]+)\s*\}\}`;

/** A reference that names nothing in the context; the step fails with this message. */
export class MissingContextError extends Error {
  constructor(readonly reference: string, readonly field: string) {
    super(`parameter '${field}' references {{context.${reference}}}, which is not in the task context; check the save_as of an earlier step or pass it in context`);
    this.name = 'MissingContextError';
  }
}

/** A substituted value that cannot go where it was put; the message names the substitution. */
export class SubstitutionError extends AppError {
  constructor(rule: string, message: string) {
    super(rule.startsWith('arg.') ? 'policy_denied' : 'invalid_params', message, { rule });
    this.name = 'SubstitutionError';
  }
}

export interface ResolveOptions {
  /** Keys an earlier step will save (dry run): references to them stay as literal placeholders. */
  placeholders?: ReadonlySet<string>;
}

/** What a reference resolved to: a value, or (dry run) a placeholder for a value not known yet. */
export type RefValue = { known: true; value: unknown } | { known: false; placeholder: string };

/** Looks up `a.b.0.c` in the context; undefined when any segment is missing. */
export function lookupPath(ctx: TaskContext, path: string): unknown {
  let cur: unknown = ctx;
  for (const seg of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** The value of one reference, a placeholder (dry run, saved by an earlier step), or MissingContextError. */
export function refValue(ref: string, ctx: TaskContext, opts: ResolveOptions, field: string): RefValue {
  const v = lookupPath(ctx, ref);
  if (v !== undefined) return { known: true, value: v };
  if (opts.placeholders?.has(ref.split(/[.[]/)[0]!)) return { known: false, placeholder: `{{context.${ref}}}` };
  throw new MissingContextError(ref, field || 'parameters');
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
  if (whole) return checked(whole[1]!, refValue(whole[1]!, ctx, opts, field), field);
  return s.replace(new RegExp(REF_SOURCE, 'g'), (_m, ref: string) => {
    const v = checked(ref, refValue(ref, ctx, opts, field), field);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function checked(ref: string, r: RefValue, field: string): unknown {
  if (!r.known) return r.placeholder;
  if (containsNul(r.value)) {
    throw new SubstitutionError('context.nul', `the value of {{context.${ref}}} (substituted into parameter '${field || 'parameters'}') contains a NUL byte, which no parameter may hold; save a value without it`);
  }
  return r.value;
}

/** True when any string inside `v` holds a NUL byte. */
export function containsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (Array.isArray(v)) return v.some(containsNul);
  if (v && typeof v === 'object') return Object.values(v).some(containsNul);
  return false;
}

/** True when any string inside `value` holds a context reference. */
export function hasRefs(value: unknown): boolean {
  return /\{\{\s*context\./.test(JSON.stringify(value ?? null));
}

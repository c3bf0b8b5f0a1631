// Redaction of the server's own secret values from text and structured results. Pure: the caller
// gathers the values (token, configured secrets, secret-named variables: src/control/redaction.ts).

/** What replaces a secret value. */
export const REDACTED = '[REDACTED]';
/**
 * The threshold: a value shorter than 8 characters is not treated as a secret (it would match
 * ordinary words and numbers everywhere); the API token is 43 characters.
 */
export const MIN_SECRET_CHARS = 8;

/** Values that appear in ordinary output too often to be anybody's secret, even when a secret-named variable holds them. */
const COMMON = new Set([
  'true', 'false', 'enabled', 'disabled', 'undefined', 'localhost', 'password', 'changeme', 'example', 'default',
  'secret', 'username', '127.0.0.1', '0.0.0.0', 'xxxxxxxx', 'redacted', '[redacted]', 'development', 'production',
]);

/**
 * True when `value` can be a secret worth redacting: at least MIN_SECRET_CHARS characters, not a
 * common word, not only digits (numbers are everywhere in output), not a single repeated character.
 */
export function isRedactable(value: string): boolean {
  if (value.length < MIN_SECRET_CHARS || COMMON.has(value.toLowerCase())) return false;
  return !/^\d+$/.test(value) && !/^(.)\1*$/s.test(value);
}

/**
 * True when `value` is a location: it reads as an absolute (or ~/) path of two or more components
 * and it, or its directory, exists (`exists` is the caller's disk check). `/home/u/key.json` says
 * where a secret is, which is not secret; a key that merely starts with `/` names no directory.
 */
export function isLocation(value: string, exists: (path: string) => boolean): boolean {
  if (!/^~?\/[^\s]*$/.test(value)) return false;
  if (value.split('/').filter((c) => c !== '' && c !== '~').length < 2) return false;
  return exists(value) || exists(value.slice(0, value.lastIndexOf('/')));
}

/** Replaces secret values in strings and in every string of a JSON-like value. */
export interface Redactor {
  text(s: string): string;
  value<T>(v: T): T;
}

/** A redactor for these values (filtered by isRedactable); replaces longer values first. */
export function createRedactor(values: Iterable<string>): Redactor {
  const kept = [...new Set([...values].filter(isRedactable))].sort((a, b) => b.length - a.length);
  if (kept.length === 0) return { text: (s) => s, value: (v) => v };
  const pattern = new RegExp(kept.map(escapeRegExp).join('|'), 'g');
  // includes() per value first: most text holds no secret, and a plain search is cheaper than the regex.
  const text = (s: string): string => (s.length >= MIN_SECRET_CHARS && kept.some((k) => s.includes(k)) ? s.replace(pattern, REDACTED) : s);
  const value = <T>(v: T): T => redactDeep(v, text, new Set()) as T;
  return { text, value };
}

const MAX_DEPTH = 64;

// Copies v with every string (and key) redacted. `path` holds the objects above v: a cycle becomes
// '[Circular]'; anything deeper than MAX_DEPTH is flattened to redacted text, never passed through.
function redactDeep(v: unknown, text: (s: string) => string, path: Set<object>): unknown {
  if (typeof v === 'string') return text(v);
  if (typeof v !== 'object' || v === null || v instanceof Date || ArrayBuffer.isView(v)) return v;
  if (path.has(v)) return '[Circular]';
  if (path.size >= MAX_DEPTH) return text(safeJson(v));
  if (v instanceof Error) return { type: v.name, message: text(v.message), stack: v.stack === undefined ? undefined : text(v.stack) };
  path.add(v);
  try {
    if (Array.isArray(v)) return v.map((x) => redactDeep(x, text, path));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[text(k)] = redactDeep(x, text, path);
    return out;
  } finally {
    path.delete(v);
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '[Unserializable]';
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

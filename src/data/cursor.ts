// Opaque pagination cursors: base64url JSON that names the query shape it belongs to.
import { AppError } from '../shared/errors.js';

/** Encodes a cursor value. */
export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Decodes a cursor, checking it was made for the same `shape` (sort order, manager…). */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string, shape: string): T {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = null;
  }
  if (v === null || typeof v !== 'object' || (v as { shape?: unknown }).shape !== shape) {
    throw new AppError('invalid_params', 'cursor is not valid for this request; pass the next_cursor of the previous page with the same parameters');
  }
  return v as T;
}

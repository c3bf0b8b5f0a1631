// Keeps the best `limit` items after a cursor from a stream, in bounded memory.
import { compareNames } from './path-order.js';

export interface Ranked<T> {
  key: number;
  path: string;
  entry: T;
}

export interface TopOptions {
  limit: number;
  desc: boolean;
  after?: { key: number; path: string };
}

/** Orders by key (asc or desc), then by path ascending, so pages are stable. */
export function rankCompare(desc: boolean) {
  return (a: { key: number; path: string }, b: { key: number; path: string }): number => {
    if (a.key !== b.key) return desc ? b.key - a.key : a.key - b.key;
    return compareNames(a.path, b.path);
  };
}

/** Collects the first `limit` items strictly after `after`; `more` says whether others remain. */
export async function collectTop<T>(stream: AsyncIterable<Ranked<T>>, opts: TopOptions): Promise<{ items: Ranked<T>[]; more: boolean }> {
  const cmp = rankCompare(opts.desc);
  let buf: Ranked<T>[] = [];
  let beyond = 0;
  for await (const r of stream) {
    if (opts.after && cmp(r, opts.after) <= 0) continue;
    beyond++;
    buf.push(r);
    if (buf.length >= opts.limit * 2 + 64) buf = buf.sort(cmp).slice(0, opts.limit);
  }
  buf.sort(cmp);
  return { items: buf.slice(0, opts.limit), more: beyond > opts.limit };
}

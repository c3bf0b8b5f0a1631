// Reads a bounded window of a log file by seeking: never the whole file. Windows are cut on
// UTF-8 character boundaries so pages can be concatenated without broken characters.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export const DECODER = new TextDecoder('utf-8', { fatal: false });

export interface WindowRequest {
  /** Start byte; default 0 (ignored when tailLines is set). */
  offset?: number;
  maxBytes: number;
  /** Return the last N lines (at most maxBytes of them). */
  tailLines?: number;
  /** Return the last maxBytes bytes when no offset is given. */
  tailByDefault?: boolean;
}

export interface LogWindow {
  data: string;
  offset: number;
  next_offset: number;
  total_bytes: number;
}

/** Reads the requested window of `file`; a missing file reads as empty. */
export function readLogWindow(file: string, req: WindowRequest): LogWindow {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { data: '', offset: 0, next_offset: 0, total_bytes: 0 };
  }
  try {
    const total = fstatSync(fd).size;
    let start = Math.min(req.offset ?? 0, total);
    if (req.tailLines !== undefined) start = tailStart(fd, total, req.tailLines, req.maxBytes);
    else if (req.offset === undefined && req.tailByDefault) start = skipContinuation(fd, Math.max(0, total - req.maxBytes), total);
    const end = Math.min(total, start + req.maxBytes);
    const buf = readAt(fd, start, end - start);
    const cut = end < total ? completeLength(buf) : buf.length;
    return { data: DECODER.decode(buf.subarray(0, cut)), offset: start, next_offset: start + cut, total_bytes: total };
  } finally {
    closeSync(fd);
  }
}

/** Reads up to `length` bytes at `position`. */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, length));
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Start of the last `lines` lines, reading backwards in blocks, never more than maxBytes back. */
function tailStart(fd: number, total: number, lines: number, maxBytes: number): number {
  const floor = Math.max(0, total - maxBytes);
  let pos = total;
  let seen = 0;
  // A final newline ends the last line; it does not start a new one.
  const last = total > 0 ? readAt(fd, total - 1, 1)[0] : undefined;
  if (last === 0x0a) seen = -1;
  while (pos > floor) {
    const from = Math.max(floor, pos - 65_536);
    const block = readAt(fd, from, pos - from);
    for (let i = block.length - 1; i >= 0; i--) {
      if (block[i] === 0x0a && ++seen === lines) return from + i + 1;
    }
    pos = from;
  }
  return skipContinuation(fd, floor, total);
}

/** Moves a start position forward past UTF-8 continuation bytes (at most 3). */
function skipContinuation(fd: number, start: number, total: number): number {
  const head = readAt(fd, start, Math.min(3, total - start));
  let i = 0;
  while (i < head.length && (head[i]! & 0xc0) === 0x80) i++;
  return start + i;
}

/** Length of `buf` without a trailing incomplete UTF-8 sequence. */
export function completeLength(buf: Buffer): number {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}

// Line windows: scan forward in 64 KiB chunks to the start line, stop at max_lines or max_bytes.
import type { FileHandle } from 'node:fs/promises';
import { AppError } from '../../shared/errors.js';
import { decodeBytes, utf8Boundary, type Detected, type TextEncoding } from './text-encoding.js';

const CHUNK = 64 * 1024;
const SCAN_LIMIT = 256 * 1024 * 1024;

export interface LineWindowOptions {
  startLine: number;
  maxLines: number;
  maxBytes: number;
  size: number;
}

/** Index just past the next newline at or after `from`, or -1. */
export function nextNewline(buf: Buffer, from: number, end: number, enc: TextEncoding): number {
  if (enc === 'utf-8' || enc === 'latin1') {
    const i = buf.indexOf(0x0a, from);
    return i === -1 || i >= end ? -1 : i + 1;
  }
  const [lo, hi] = enc === 'utf-16le' ? [0x0a, 0x00] : [0x00, 0x0a];
  for (let i = from; i + 1 < end; i += 2) if (buf[i] === lo && buf[i + 1] === hi) return i + 2;
  return -1;
}

/** Finds the byte range of the requested lines, then reads and decodes only that range. */
export async function readLineWindow(fh: FileHandle, det: Detected, o: LineWindowOptions) {
  const range = await findRange(fh, det, o);
  const buf = Buffer.alloc(range.end - range.start);
  const { bytesRead } = await fh.read(buf, 0, buf.length, range.start);
  let end = bytesRead;
  if (range.cutMidLine && det.encoding === 'utf-8') end = utf8Boundary(buf, end);
  if (range.cutMidLine && det.encoding.startsWith('utf-16')) end -= end % 2;
  const next = range.start + end;
  return { content: decodeBytes(buf.subarray(0, end), det.encoding), offset: range.start, nextOffset: next >= o.size ? null : next, count: range.count };
}

async function findRange(fh: FileHandle, det: Detected, o: LineWindowOptions) {
  const buf = Buffer.alloc(CHUNK);
  let line = 1;
  let start = o.startLine <= 1 ? det.bomBytes : -1;
  let count = 0;
  let lastEnd = start;
  const over = () => (count > 0 ? { start, end: lastEnd, count, cutMidLine: false } : { start, end: start + o.maxBytes, count, cutMidLine: true });
  for (let pos = det.bomBytes; pos < o.size; ) {
    if (start === -1 && pos > SCAN_LIMIT) throw new AppError('too_large', `start_line ${o.startLine} lies beyond the first ${SCAN_LIMIT / 1048576} MiB`, { hint: 'use offset (bytes) or log_tail for the end of large files' });
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    const usable = det.encoding.startsWith('utf-16') ? bytesRead - (bytesRead % 2) : bytesRead;
    for (let i = 0; ; ) {
      const nl = nextNewline(buf, i, usable, det.encoding);
      if (nl === -1) break;
      i = nl;
      if (start === -1) {
        if (++line === o.startLine) lastEnd = start = pos + nl;
        continue;
      }
      if (pos + nl - start > o.maxBytes) return over();
      lastEnd = pos + nl;
      if (++count === o.maxLines) return { start, end: lastEnd, count, cutMidLine: false };
    }
    pos += usable;
    if (start !== -1 && pos - start > o.maxBytes) return over();
  }
  if (start === -1) return { start: o.size, end: o.size, count: 0, cutMidLine: false };
  return { start, end: o.size, count: o.size > lastEnd ? count + 1 : count, cutMidLine: false };
}

// log_tail: the last lines of a (possibly huge or sparse) text file, read backwards in 64 KiB chunks.
import type { FileHandle } from 'node:fs/promises';
import type { AppDeps } from '../../control/deps.js';
import { openText } from './read-file.js';
import { decodeBytes, type Detected } from './text-encoding.js';

const CHUNK = 64 * 1024;
const MAX_LINE_BYTES = 16 * 1024;
const OUTPUT_BUDGET = 512 * 1024;
const CONTAINS_SCAN_BUDGET = 64 * 1024 * 1024;

export interface LogTailArgs {
  path: string;
  lines: number;
  contains?: string;
}

export interface LogTailResult {
  path: string;
  lines: string[];
  total_bytes: number;
  truncated: boolean;
  partial: boolean;
  bytes_scanned: number;
  encoding: string;
}

/** Returns the last `lines` lines (matching `contains` if given) without reading the whole file. */
export async function logTail(deps: AppDeps, args: LogTailArgs): Promise<LogTailResult> {
  const { real, fh, size, det } = await openText(deps, args.path, 'log_tail', true);
  try {
    const r = await scanBackwards(fh, det, size, args);
    return { path: real, ...r, total_bytes: size, encoding: det.encoding };
  } finally {
    await fh.close();
  }
}

/** Start of the last line in buf[0,end): index after the previous newline, or -1 when none. */
function lastLineStart(buf: Buffer, end: number, det: Detected): number {
  if (det.encoding === 'utf-8' || det.encoding === 'latin1') {
    const i = end > 0 ? buf.lastIndexOf(0x0a, end - 1) : -1;
    return i === -1 ? -1 : i + 1;
  }
  const [lo, hi] = det.encoding === 'utf-16le' ? [0x0a, 0x00] : [0x00, 0x0a];
  for (let i = end - 2; i >= 0; i -= 2) if (buf[i] === lo && buf[i + 1] === hi) return i + 2;
  return -1;
}

interface Scan {
  out: string[];
  outBytes: number;
  done: boolean;
}

async function scanBackwards(fh: FileHandle, det: Detected, size: number, args: LogTailArgs) {
  const s: Scan = { out: [], outBytes: 0, done: false };
  const single = det.encoding === 'utf-8' || det.encoding === 'latin1';
  let carry = Buffer.alloc(0);
  let pos = size;
  let skipTrailing = true;
  let reachedStart = false;
  let remaining = 0;
  let scanned = 0;
  while (!s.done) {
    if (args.contains !== undefined && scanned >= CONTAINS_SCAN_BUDGET) break;
    const from = Math.max(det.bomBytes, pos - CHUNK);
    if (from >= pos) {
      reachedStart = true;
      break;
    }
    const chunk = Buffer.alloc(pos - from);
    await fh.read(chunk, 0, chunk.length, from);
    scanned += chunk.length;
    pos = from;
    let buf = Buffer.concat([chunk, carry]);
    // A NUL run (sparse hole, copytruncate padding) marks where the text starts.
    const nul = single ? buf.lastIndexOf(0) : -1;
    if (nul !== -1) ((buf = buf.subarray(nul + 1)), (pos = det.bomBytes));
    let end = buf.length;
    for (let st = lastLineStart(buf, end, det); st !== -1 && !s.done; st = lastLineStart(buf, end, det)) {
      if (!(skipTrailing && st === end)) emit(s, buf.subarray(st, end), det, args);
      skipTrailing = false;
      end = Math.max(0, st - (single ? 1 : 2));
    }
    remaining = end;
    carry = Buffer.from(buf.subarray(Math.max(0, end - MAX_LINE_BYTES), end));
    if (pos <= det.bomBytes && !s.done) {
      if (carry.length > 0 || !skipTrailing) emit(s, carry, det, args);
      reachedStart = true;
      break;
    }
  }
  const partial = !s.done && !reachedStart;
  return { lines: s.out.reverse(), truncated: s.done && (pos > det.bomBytes || remaining > 0), partial, bytes_scanned: scanned };
}

// Adds one line (newest first) if it passes the filter; sets done at the line count or the byte budget.
function emit(s: Scan, bytes: Buffer, det: Detected, args: LogTailArgs): void {
  let text = decodeBytes(bytes.subarray(0, MAX_LINE_BYTES), det.encoding);
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (args.contains !== undefined && !text.includes(args.contains)) return;
  s.out.push(text);
  s.outBytes += text.length;
  if (s.out.length >= args.lines || s.outBytes >= OUTPUT_BUDGET) s.done = true;
}

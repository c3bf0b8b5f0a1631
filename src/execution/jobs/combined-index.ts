// The combined stream without writing the bytes twice: combined.idx holds one 24-byte record per
// switch between streams (combined offset, stream, offset in that stream's log). The combined
// view is the stream logs' bytes in the order the supervisor received them.
import { closeSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { completeLength, DECODER, readAt, type LogWindow, type WindowRequest } from './read-log-window.js';

const REC = 24;

/** Supervisor side: appends a record whenever the stream changes. */
export class CombinedIndexWriter {
  private readonly fd: number;
  private last = -1;
  private pos = 0;
  private records = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w', 0o600);
  }

  /** Bytes the index file holds. */
  get bytes(): number {
    return this.records * REC;
  }

  /** Bytes the index would grow by if `stream` came next. */
  costOf(stream: 0 | 1): number {
    return stream === this.last ? 0 : REC;
  }

  /** `len` bytes of `stream` were stored at `streamOffset` of its log. */
  add(stream: 0 | 1, streamOffset: number, len: number): void {
    if (len === 0) return;
    if (stream !== this.last) {
      const rec = Buffer.alloc(REC);
      rec.writeDoubleLE(this.pos, 0);
      rec.writeDoubleLE(stream, 8);
      rec.writeDoubleLE(streamOffset, 16);
      writeSync(this.fd, rec);
      this.records++;
      this.last = stream;
    }
    this.pos += len;
  }

  close(): void {
    closeSync(this.fd);
  }
}

interface Run {
  start: number;
  stream: number;
  at: number;
}

/**
 * Most index records (stream switches) one read walks. A window that switches streams more often
 * is returned shorter (next_offset tells where to continue; a tail keeps its end), so one call costs
 * a bounded number of bytes read in three reads, whatever the job wrote.
 */
export const MAX_RUNS_PER_READ = 65_536;

interface Index {
  fd: number;
  count: number;
  total: number;
  logs: [string, string];
}

/** Reads a window of the combined stream; same rules as readLogWindow (tail_lines searches within max_bytes). */
export function readCombinedWindow(index: string, logs: [string, string], req: WindowRequest): LogWindow {
  let fd: number;
  try {
    fd = openSync(index, 'r');
  } catch {
    return { data: '', offset: 0, next_offset: 0, total_bytes: 0 };
  }
  try {
    const count = Math.floor(fstatSync(fd).size / REC);
    if (count === 0) return { data: '', offset: 0, next_offset: 0, total_bytes: 0 };
    const lastRun = runAt(fd, count - 1);
    const ix: Index = { fd, count, logs, total: lastRun.start + Math.max(0, sizeOf(logs[lastRun.stream]!) - lastRun.at) };
    const tail = req.tailLines !== undefined || (req.offset === undefined && req.tailByDefault);
    const start = tail ? Math.max(0, ix.total - req.maxBytes) : Math.min(req.offset ?? 0, ix.total);
    const got = gather(ix, start, Math.min(ix.total, start + req.maxBytes), tail === true);
    let buf = got.buf;
    let from = got.from;
    if (req.tailLines !== undefined) {
      const cut = lastLinesStart(buf, req.tailLines);
      buf = buf.subarray(cut);
      from += cut;
    }
    const end = from + buf.length;
    const keep = end < ix.total ? completeLength(buf) : buf.length;
    return { data: DECODER.decode(buf.subarray(0, keep)), offset: from, next_offset: from + keep, total_bytes: ix.total };
  } finally {
    closeSync(fd);
  }
}

function runAt(fd: number, i: number): Run {
  return decode(readAt(fd, i * REC, REC), 0);
}

function decode(b: Buffer, off: number): Run {
  return { start: b.readDoubleLE(off), stream: b.readDoubleLE(off + 8), at: b.readDoubleLE(off + 16) };
}

/** Index of the last run starting at or before `pos` (binary search, one small read per step). */
function runFor(ix: Index, pos: number): number {
  let lo = 0;
  let hi = ix.count - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (runAt(ix.fd, mid).start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The stream bytes covering [from, to) of the combined stream, or a shorter range when it spans
 * more than MAX_RUNS_PER_READ runs (keeping its end for a tail). The runs come from one index read;
 * each stream's runs in a window are contiguous in its log, so each log is read once.
 */
function gather(ix: Index, from: number, to: number, tail: boolean): { buf: Buffer; from: number } {
  if (to <= from) return { buf: Buffer.alloc(0), from };
  let lo = runFor(ix, from);
  const hi = runFor(ix, to - 1);
  if (hi - lo + 1 > MAX_RUNS_PER_READ) {
    if (tail) {
      lo = hi - MAX_RUNS_PER_READ + 1;
      from = runAt(ix.fd, lo).start;
    } else {
      to = runAt(ix.fd, lo + MAX_RUNS_PER_READ).start;
    }
  }
  const raw = readAt(ix.fd, lo * REC, (Math.min(hi + 2, ix.count) - lo) * REC);
  const runs = Array.from({ length: raw.length / REC }, (_, k) => decode(raw, k * REC));
  const pieces: Array<{ stream: number; at: number; len: number }> = [];
  for (let k = 0, pos = from; k < runs.length && pos < to; k++) {
    const r = runs[k]!;
    const runEnd = k + 1 < runs.length ? runs[k + 1]!.start : ix.total;
    const take = Math.min(to, runEnd) - pos;
    if (take <= 0) continue;
    pieces.push({ stream: r.stream, at: r.at + (pos - r.start), len: take });
    pos += take;
  }
  return { buf: assemble(ix.logs, pieces, to - from), from };
}

// Reads each log's contiguous range once and copies the pieces into place.
function assemble(logs: [string, string], pieces: Array<{ stream: number; at: number; len: number }>, size: number): Buffer {
  const out = Buffer.alloc(size);
  const data: Array<{ base: number; buf: Buffer } | undefined> = [undefined, undefined];
  for (const s of [0, 1]) {
    const mine = pieces.filter((p) => p.stream === s);
    if (mine.length === 0) continue;
    const base = mine[0]!.at;
    const last = mine[mine.length - 1]!;
    const fd = openSync(logs[s]!, 'r');
    try {
      data[s] = { base, buf: readAt(fd, base, last.at + last.len - base) };
    } finally {
      closeSync(fd);
    }
  }
  let n = 0;
  for (const p of pieces) {
    const d = data[p.stream]!;
    n += d.buf.copy(out, n, p.at - d.base, p.at - d.base + p.len);
  }
  return out.subarray(0, n);
}

function lastLinesStart(buf: Buffer, lines: number): number {
  let seen = buf.length > 0 && buf[buf.length - 1] === 0x0a ? -1 : 0;
  for (let i = buf.length - 1; i >= 0; i--) if (buf[i] === 0x0a && ++seen === lines) return i + 1;
  return 0;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

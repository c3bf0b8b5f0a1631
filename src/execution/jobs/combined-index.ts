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
    const run = (i: number): Run => {
      const b = readAt(fd, i * REC, REC);
      return { start: b.readDoubleLE(0), stream: b.readDoubleLE(8), at: b.readDoubleLE(16) };
    };
    if (count === 0) return { data: '', offset: 0, next_offset: 0, total_bytes: 0 };
    const lastRun = run(count - 1);
    const total = lastRun.start + Math.max(0, sizeOf(logs[lastRun.stream]!) - lastRun.at);
    const tail = req.tailLines !== undefined || (req.offset === undefined && req.tailByDefault);
    const start = tail ? Math.max(0, total - req.maxBytes) : Math.min(req.offset ?? 0, total);
    let buf = gather({ run, count, total, logs }, start, Math.min(total, start + req.maxBytes));
    let from = start;
    if (req.tailLines !== undefined) {
      const cut = lastLinesStart(buf, req.tailLines);
      buf = buf.subarray(cut);
      from += cut;
    }
    const end = from + buf.length;
    const keep = end < total ? completeLength(buf) : buf.length;
    return { data: DECODER.decode(buf.subarray(0, keep)), offset: from, next_offset: from + keep, total_bytes: total };
  } finally {
    closeSync(fd);
  }
}

/** Concatenates the stream bytes covering [from, to) of the combined stream. */
function gather(ix: { run: (i: number) => Run; count: number; total: number; logs: [string, string] }, from: number, to: number): Buffer {
  let lo = 0;
  let hi = ix.count - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ix.run(mid).start <= from) lo = mid;
    else hi = mid - 1;
  }
  const parts: Buffer[] = [];
  let pos = from;
  for (let i = lo; i < ix.count && pos < to; i++) {
    const r = ix.run(i);
    const runEnd = i + 1 < ix.count ? ix.run(i + 1).start : ix.total;
    const take = Math.min(to, runEnd) - pos;
    if (take <= 0) continue;
    const fd = openSync(ix.logs[r.stream]!, 'r');
    try {
      parts.push(readAt(fd, r.at + (pos - r.start), take));
    } finally {
      closeSync(fd);
    }
    pos += take;
  }
  return Buffer.concat(parts);
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

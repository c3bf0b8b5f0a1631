// Splits a byte stream into lines without ever holding more than `maxBytes` of one line: a line
// over the limit is dropped as it streams in, and only its head and tail are kept for the report.

/** A line over the limit: how long it was, and a little of each end (to find its JSON-RPC id). */
export interface OversizedLine {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export interface LineSink {
  line(bytes: Buffer): void;
  oversized(info: OversizedLine): void;
}

const KEEP = 64 * 1024;

/** Creates a splitter; feed it chunks with `push`, and call `end` when the stream ends. */
export function createLineSplitter(maxBytes: number, sink: LineSink) {
  let parts: Buffer[] = [];
  let size = 0;
  let over: OversizedLine | null = null;

  const take = (piece: Buffer) => {
    if (over) return void keepTail(over, piece);
    if (size + piece.length <= maxBytes) {
      parts.push(piece);
      size += piece.length;
      return;
    }
    over = { bytes: size, head: headOf([...parts, piece]), tail: Buffer.alloc(0) };
    keepTail(over, piece);
    parts = [];
    size = 0;
  };
  const endLine = () => {
    if (over) sink.oversized(over);
    else sink.line(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    parts = [];
    size = 0;
    over = null;
  };
  return {
    push(chunk: Buffer): void {
      let start = 0;
      let nl: number;
      while ((nl = chunk.indexOf(0x0a, start)) >= 0) {
        take(chunk.subarray(start, nl));
        endLine();
        start = nl + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
    },
    end(): void {
      if (over || size > 0) endLine();
    },
  };
}

function keepTail(o: OversizedLine, piece: Buffer): void {
  o.bytes += piece.length;
  const joined = o.tail.length + piece.length > KEEP * 2 ? Buffer.concat([o.tail, piece.subarray(Math.max(0, piece.length - KEEP))]) : Buffer.concat([o.tail, piece]);
  o.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - KEEP)));
}

function headOf(parts: Buffer[]): Buffer {
  const head: Buffer[] = [];
  let n = 0;
  for (const p of parts) {
    if (n >= KEEP) break;
    head.push(p.subarray(0, KEEP - n));
    n += Math.min(p.length, KEEP - n);
  }
  return Buffer.concat(head);
}

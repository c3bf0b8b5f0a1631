// Bounded capture of one output stream: keeps the head and the tail, counts what it dropped.
const DECODER = new TextDecoder('utf-8', { fatal: false });

/** Collects at most `cap` bytes (half head, half tail) however much the stream produces. */
export class OutputCapture {
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer;
  private tailStart = 0;
  private tailLen = 0;
  total = 0;

  constructor(cap: number) {
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = cap - this.headCap;
    this.tail = Buffer.alloc(0);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0 && this.tailCap > 0) this.pushTail(rest);
  }

  /** Ring buffer write: memory stays at tailCap bytes. */
  private pushTail(data: Buffer): void {
    if (this.tail.length === 0) this.tail = Buffer.alloc(this.tailCap);
    const src = data.length > this.tailCap ? data.subarray(data.length - this.tailCap) : data;
    const writeAt = (this.tailStart + this.tailLen) % this.tailCap;
    const first = Math.min(src.length, this.tailCap - writeAt);
    src.copy(this.tail, writeAt, 0, first);
    src.copy(this.tail, 0, first);
    const overflow = Math.max(0, this.tailLen + src.length - this.tailCap);
    this.tailLen = Math.min(this.tailCap, this.tailLen + src.length);
    this.tailStart = (this.tailStart + overflow) % this.tailCap;
  }

  get truncated(): boolean {
    return this.total > this.headBytes + this.tailLen;
  }

  /** The captured text, with a one-line marker where bytes were dropped. */
  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat([
      this.tail.subarray(this.tailStart, Math.min(this.tailCap, this.tailStart + this.tailLen)),
      this.tail.subarray(0, Math.max(0, this.tailStart + this.tailLen - this.tailCap)),
    ]);
    if (!this.truncated) return DECODER.decode(Buffer.concat([head, tail]));
    const dropped = this.total - head.length - tail.length;
    return `${DECODER.decode(head)}\n[... ${dropped} bytes dropped ...]\n${DECODER.decode(tail)}`;
  }
}

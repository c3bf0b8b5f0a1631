// One log file with a byte cap: bytes past the cap are counted and dropped, and the file ends with
// a one-line marker naming the cap (or the limit that stopped the job) and the dropped count
// (rewritten in place as the count grows).
import { closeSync, openSync, writeSync } from 'node:fs';

const NL = 0x0a;

/** Appends chunks to `file` up to `cap` bytes; memory use is independent of the output size. */
export class CappedLog {
  /** Bytes of the command's output stored in the file. */
  stored = 0;
  /** Bytes of the command's output dropped past the cap. */
  dropped = 0;
  private readonly fd: number;
  private markerAt = -1;
  private lastByte = NL;
  private stoppedBy: string | null = null;

  constructor(
    file: string,
    private readonly cap: number,
    private readonly label: string,
  ) {
    this.fd = openSync(file, 'w', 0o600);
  }

  /** Bytes the command wrote to this stream (stored + dropped). */
  get total(): number {
    return this.stored + this.dropped;
  }

  /** How many of `n` bytes the cap still lets in (0 once stopped). */
  room(n: number): number {
    return this.stoppedBy === null ? Math.min(n, Math.max(0, this.cap - this.stored)) : 0;
  }

  /** From now on every byte is dropped; `why` goes into the marker (e.g. the limit that stopped the job). */
  stop(why: string): void {
    this.stoppedBy ??= why;
  }

  /** Appends a chunk, cutting it at the cap (and at `limit`); returns how many of its bytes were stored. */
  write(chunk: Buffer, limit = chunk.length): number {
    const keep = Math.min(this.room(chunk.length), limit);
    if (keep > 0) {
      writeFully(this.fd, chunk.subarray(0, keep), this.stored);
      this.stored += keep;
      this.lastByte = chunk[keep - 1]!;
    }
    if (keep < chunk.length) {
      this.dropped += chunk.length - keep;
      if (this.markerAt < 0) this.markerAt = this.stored;
    }
    return keep;
  }

  /** Writes (or rewrites) the marker with the current dropped count; cheap, called periodically and at the end. */
  flushMarker(): void {
    if (this.markerAt < 0) return;
    const lead = this.lastByte === NL ? '' : '\n';
    const count = String(this.dropped).padEnd(20, ' ');
    const why = [this.stored >= this.cap ? `capped at ${this.cap} bytes (jobs.max_log_bytes)` : '', this.stoppedBy ?? ''].filter(Boolean).join('; ');
    const line = `${lead}[workbench: ${this.label} log ${why}; ${count} bytes dropped]\n`;
    writeFully(this.fd, Buffer.from(line), this.markerAt);
  }

  /** Flushes the marker and closes the file. */
  close(): void {
    this.flushMarker();
    closeSync(this.fd);
  }
}

function writeFully(fd: number, buf: Buffer, position: number): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, position + off);
}

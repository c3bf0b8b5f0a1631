// One log file with a byte cap: bytes past the cap are counted and dropped, and the file ends with
// a one-line marker naming the cap and the dropped count (rewritten in place as the count grows).
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

  /** Appends a chunk, cutting it at the cap; returns how many of its bytes were stored. */
  write(chunk: Buffer): number {
    const room = Math.max(0, this.cap - this.stored);
    const keep = Math.min(room, chunk.length);
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
    const line = `${lead}[workbench: ${this.label} log capped at ${this.cap} bytes (jobs.max_log_bytes); ${count} bytes dropped]\n`;
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

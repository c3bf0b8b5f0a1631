// stdin for jobs started with stdin_open: a FIFO in the job directory, which outlives any server.
// The supervisor holds it open read-write (so writers closing it never mean EOF) and relays what
// arrives to the command; `stdin.close` (written by job_input close=true) ends the command's stdin.
// Backpressure: the relay reads the FIFO only while the command's stdin pipe takes more, so the
// supervisor holds at most one read buffer plus the stream's high-water mark, whatever is sent;
// the rest waits in the FIFO and, once that is full, job_input answers `busy`.
import { execFile } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import type { Writable } from 'node:stream';

const POLL_MS = 50;
const READ_BYTES = 65_536;

/** Creates the FIFO (mode 0600); Node has no mkfifo, so mkfifo(1) runs — asynchronously. */
export function createFifo(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/mkfifo', ['-m', '600', '--', path], { timeout: 10_000 }, (err) => (err ? reject(new Error(`mkfifo ${path} failed: ${err.message}`)) : resolve()));
  });
}

/** Relays FIFO bytes into `target` as fast as the target takes them, until close() or dispose(). */
export class StdinRelay {
  private readonly fd: number;
  private readonly timer: NodeJS.Timeout;
  private readonly buf = Buffer.alloc(READ_BYTES);
  /** The target's buffer is over its high-water mark: wait for 'drain'. */
  private waiting = false;
  private closing = false;
  private done = false;

  constructor(
    fifo: string,
    private readonly target: Writable,
  ) {
    this.fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    target.on('error', () => {
      /* the command exited or closed its stdin: input is discarded from now on */
    });
    const resume = () => {
      this.waiting = false;
      this.pump();
    };
    target.on('drain', resume);
    target.on('close', resume);
    this.timer = setInterval(() => this.pump(), POLL_MS);
  }

  /** Moves what the FIFO holds to the command, without blocking and only while the command takes it. */
  pump(): void {
    while (!this.done && !this.waiting) {
      const n = this.read();
      if (n === 0) {
        if (this.closing) this.finish(true);
        return;
      }
      if (this.target.destroyed || this.target.writableEnded) continue; // nobody reads: discard
      if (!this.target.write(Buffer.from(this.buf.subarray(0, n)))) this.waiting = true;
    }
  }

  /** EOF requested: delivers what the FIFO holds (as the command reads it), then ends the command's stdin. */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.pump();
  }

  /** The job ended: stops relaying at once; whatever is left is discarded. */
  dispose(): void {
    if (!this.done) this.finish(false);
  }

  /** Bytes read from the FIFO, 0 when it is empty for now (EAGAIN). */
  private read(): number {
    try {
      return readSync(this.fd, this.buf, 0, this.buf.length, null);
    } catch {
      return 0;
    }
  }

  private finish(endTarget: boolean): void {
    this.done = true;
    clearInterval(this.timer);
    closeSync(this.fd);
    if (endTarget && !this.target.destroyed) this.target.end();
  }
}

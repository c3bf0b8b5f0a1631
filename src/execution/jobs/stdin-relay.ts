// stdin for jobs started with stdin_open: a FIFO in the job directory, which outlives any server.
// The supervisor holds it open read-write (so writers closing it never mean EOF) and relays what
// arrives to the command; `stdin.close` (written by job_input close=true) ends the command's stdin.
import { execFile } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import type { Writable } from 'node:stream';

const POLL_MS = 50;

/** Creates the FIFO (mode 0600); Node has no mkfifo, so mkfifo(1) runs — asynchronously. */
export function createFifo(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/mkfifo', ['-m', '600', '--', path], { timeout: 10_000 }, (err) => (err ? reject(new Error(`mkfifo ${path} failed: ${err.message}`)) : resolve()));
  });
}

/** Relays FIFO bytes into `target` until close(). */
export class StdinRelay {
  private readonly fd: number;
  private readonly timer: NodeJS.Timeout;
  private readonly buf = Buffer.alloc(65_536);
  private closed = false;

  constructor(
    fifo: string,
    private readonly target: Writable,
  ) {
    this.fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    target.on('error', () => {
      /* the command exited or closed its stdin: input is discarded */
    });
    this.timer = setInterval(() => this.pump(), POLL_MS);
  }

  /** Moves whatever is in the FIFO to the command, without blocking. */
  pump(): void {
    for (;;) {
      let n = 0;
      try {
        n = readSync(this.fd, this.buf, 0, this.buf.length, null);
      } catch {
        return; // EAGAIN: nothing more for now
      }
      if (n <= 0) return;
      if (!this.target.destroyed) this.target.write(Buffer.from(this.buf.subarray(0, n)));
    }
  }

  /** Delivers what is left, then ends the command's stdin. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pump();
    clearInterval(this.timer);
    closeSync(this.fd);
    if (!this.target.destroyed) this.target.end();
  }
}

// The writing side of a job's stdin FIFO (job_input): non-blocking and backpressured. The FIFO
// holds at most a pipe's worth; the supervisor moves it on only as fast as the command reads, so
// when the command does not read, writes stop being accepted and the caller learns how much was.
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { AppError } from '../../shared/errors.js';

/** Writes of at most PIPE_BUF bytes to a pipe are atomic: all of it lands, or EAGAIN and none. */
const PIPE_BUF = 4096;
const RETRY_MS = 10;

export interface FifoWriteOptions {
  /** Give up when nothing could be written for this long (the command is not reading). */
  stallMs: number;
  /** Give up at this overall bound even while the command still reads, slowly. */
  timeoutMs: number;
}

/** How much of the data the FIFO accepted: always a whole number of UTF-8 characters. */
export interface FifoWrite {
  written: number;
  complete: boolean;
}

/** Writes `data` into the FIFO while the command keeps reading; stops at a stall or the overall bound. */
export async function writeToFifo(fifo: string, data: Buffer, opts: FifoWriteOptions): Promise<FifoWrite> {
  const deadline = Date.now() + opts.timeoutMs;
  const fd = await openWriter(fifo, deadline);
  let off = 0;
  let lastProgress = Date.now();
  try {
    while (off < data.length) {
      const end = pieceEnd(data, off);
      if (tryWrite(fd, data, off, end)) {
        off = end;
        lastProgress = Date.now();
        continue;
      }
      const now = Date.now();
      if (now - lastProgress >= opts.stallMs || now >= deadline) break;
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  } finally {
    closeSync(fd);
  }
  return { written: off, complete: off === data.length };
}

/** The end of the next piece: at most PIPE_BUF bytes, never inside a UTF-8 character. */
export function pieceEnd(data: Buffer, off: number): number {
  let end = Math.min(off + PIPE_BUF, data.length);
  while (end < data.length && end > off + 1 && (data[end]! & 0xc0) === 0x80) end--;
  return end;
}

/** True when the piece was written whole; false when the pipe is full (EAGAIN). */
function tryWrite(fd: number, data: Buffer, off: number, end: number): boolean {
  try {
    const n = writeSync(fd, data, off, end - off);
    // A piece of ≤ PIPE_BUF bytes is written whole or not at all (POSIX, O_NONBLOCK on a pipe).
    if (n !== end - off) throw new AppError('internal', `short write to the job's stdin FIFO (${n} of ${end - off} bytes)`);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return false;
    throw err;
  }
}

/**
 * Opens the FIFO for writing. Right after job_start the supervisor may not have created or opened
 * its reading end yet (ENOENT / ENXIO): that is waited for, up to the deadline, rather than refused.
 */
async function openWriter(fifo: string, deadline: number): Promise<number> {
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'ENXIO' || code === 'ENOENT') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      throw new AppError('unavailable', `the job's stdin is not open (${code}): its supervisor is not running or has not started it yet`, {
        hint: 'check job_status; input can only be sent while the job is running',
      });
    }
  }
}

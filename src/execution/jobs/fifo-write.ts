// The writing side of a job's stdin FIFO (job_input): non-blocking, bounded in time.
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { AppError } from '../../shared/errors.js';

/** Writes all of `data` into the FIFO, waiting while the pipe is full, up to `timeoutMs`. */
export async function writeToFifo(fifo: string, data: Buffer, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const fd = await openWriter(fifo, deadline);
  let off = 0;
  try {
    while (off < data.length) {
      try {
        off += writeSync(fd, data, off, data.length - off);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        if (Date.now() > deadline) {
          throw new AppError('timeout', `the job did not read its input in time (${off} of ${data.length} bytes written)`, {
            hint: 'the command is not reading stdin quickly; send smaller pieces or check job_output',
          });
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  } finally {
    closeSync(fd);
  }
  return off;
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
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      throw new AppError('unavailable', `the job's stdin is not open (${code}): its supervisor is not running or has not started it yet`, {
        hint: 'check job_status; input can only be sent while the job is running',
      });
    }
  }
}

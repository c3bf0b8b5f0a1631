// Backpressure: at most N calls run, at most M wait (each for a bounded time), the rest are busy at once.
import { AppError } from '../shared/errors.js';

export interface GateOptions {
  maxInflight: number;
  maxQueue: number;
  queueWaitMs: number;
  name: string;
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout;
}

/** A counting semaphore with a bounded, time-limited queue. */
export class Gate {
  inflight = 0;
  private readonly queue: Waiter[] = [];
  constructor(private readonly opts: GateOptions) {}

  get queued(): number {
    return this.queue.length;
  }

  /**
   * Resolves with a release function, or throws AppError('busy') without waiting when full. A call
   * cancelled while it waits leaves the queue at once (AppError('cancelled')) and never runs.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw cancelledWhileQueued();
    if (this.inflight < this.opts.maxInflight) {
      this.inflight++;
      return this.releaser();
    }
    if (this.queue.length >= this.opts.maxQueue || this.opts.queueWaitMs === 0) throw this.busy();
    return new Promise((resolve, reject) => {
      const leave = (err: AppError) => {
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(err);
      };
      const onAbort = () => leave(cancelledWhileQueued());
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', onAbort);
          this.inflight++;
          resolve(this.releaser());
        },
        timer: setTimeout(() => leave(this.busy()), this.opts.queueWaitMs),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inflight--;
      this.queue.shift()?.grant();
    };
  }

  private busy(): AppError {
    return new AppError(
      'busy',
      `Workbench is busy: ${this.opts.maxInflight} ${this.opts.name} calls are running and ${this.queue.length} are waiting`,
      { hint: 'retry in a second, or start long work with job_start' },
    );
  }
}

function cancelledWhileQueued(): AppError {
  return new AppError('cancelled', 'the call was cancelled while it waited for a free slot; nothing ran');
}

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

  /** Resolves with a release function, or throws AppError('busy') without waiting when full. */
  async acquire(): Promise<() => void> {
    if (this.inflight < this.opts.maxInflight) {
      this.inflight++;
      return this.releaser();
    }
    if (this.queue.length >= this.opts.maxQueue || this.opts.queueWaitMs === 0) throw this.busy();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          this.inflight++;
          resolve(this.releaser());
        },
        timer: setTimeout(() => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(this.busy());
        }, this.opts.queueWaitMs),
      };
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

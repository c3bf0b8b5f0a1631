// Where a job's output goes: each chunk is cut by its stream's own cap, paid for from the
// state directory's log budget (its bytes plus any combined-index record it adds), stored, and
// recorded in the combined index. Once the budget refuses, both logs are stopped: every later byte
// is counted and dropped, and each cut log ends with a marker naming the limit.
import type { CappedLog } from './capped-log.js';
import type { CombinedIndexWriter } from './combined-index.js';
import type { LogBudget } from './log-budget.js';

export interface JobLogs {
  stdout: CappedLog;
  stderr: CappedLog;
}

/** The write function for stream 0 (stdout) and 1 (stderr) of a job. */
export function budgetedSink(logs: JobLogs, combined: CombinedIndexWriter, budget: LogBudget): (stream: 0 | 1, chunk: Buffer) => void {
  return (stream, chunk) => {
    const log = stream === 0 ? logs.stdout : logs.stderr;
    const want = log.room(chunk.length);
    const index = want > 0 ? combined.costOf(stream) : 0;
    const got = budget.take(want + index);
    const keep = got >= want + index ? want : Math.max(0, got - index);
    const at = log.stored;
    combined.add(stream, at, log.write(chunk, keep));
    if (budget.stopped) for (const l of [logs.stdout, logs.stderr]) l.stop(budget.stopped.marker);
  };
}

/** Bytes of a job's logs that count against the budget (the markers are the stated slack). */
export function budgetedBytes(logs: JobLogs, combined: CombinedIndexWriter): number {
  return logs.stdout.stored + logs.stderr.stored + combined.bytes;
}

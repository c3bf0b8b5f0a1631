// The cost the total log budget adds to a job's log write path: 1 GiB in 64 KiB chunks through the
// supervisor's budgeted sink (ledger in SQLite, default 4 GiB budget) vs the same logs and index
// written directly (the path before the budget), interleaved in the same run, medians of 3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetedSink } from '../src/execution/jobs/budgeted-sink.js';
import { CappedLog } from '../src/execution/jobs/capped-log.js';
import { CombinedIndexWriter } from '../src/execution/jobs/combined-index.js';
import { DEFAULT_LOG_BUDGET, LogBudget } from '../src/execution/jobs/log-budget.js';
import { openDb } from '../src/store/db.js';
import { createJobsRepo } from '../src/store/jobs-repo.js';
import type { BenchRow } from './stats.js';

const GIB = 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024);

function writeGiB(dir: string, budget?: LogBudget): number {
  const logs = { stdout: new CappedLog(join(dir, 'stdout.log'), 2 * GIB, 'stdout'), stderr: new CappedLog(join(dir, 'stderr.log'), 2 * GIB, 'stderr') };
  const combined = new CombinedIndexWriter(join(dir, 'combined.idx'));
  const sink = budget ? budgetedSink(logs, combined, budget) : (s: 0 | 1, c: Buffer) => combined.add(s, logs.stdout.stored, logs.stdout.write(c));
  const t0 = performance.now();
  for (let i = 0; i < GIB / CHUNK.length; i++) sink(0, CHUNK);
  const ms = performance.now() - t0;
  logs.stdout.close();
  logs.stderr.close();
  combined.close();
  budget?.settle(0);
  return GIB / 1048576 / (ms / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One row: MiB/s with the budget vs without. */
export async function benchLogBudget(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-bench-budget-'));
  const db = openDb(join(dir, 'workbench.db'));
  try {
    const jobs = createJobsRepo(db);
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = `BENCH${i}`;
      jobs.insertQueued({ id, name: null, command: 'bench', createdAt: new Date().toISOString(), stdinOpen: false, policy: '{}', policyFp: 'bench', specSha256: '' }, { maxRunning: 4, maxQueued: 100 });
      base.push(writeGiB(dir));
      ours.push(writeGiB(dir, new LogBudget({ jobId: id, stateDir: dir, dbPath: join(dir, 'workbench.db'), limits: { ...DEFAULT_LOG_BUDGET, minFreeDiskBytes: 0 }, onExhausted: () => undefined })));
    }
    return [{ name: 'job log write path: 1 GiB with the total budget', ours: median(ours), baseline: median(base), unit: 'MiB/s', note: 'budgeted sink (SQLite ledger, 64 MiB chunks) vs direct log + index writes; target ≥ 0.9×' }];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchLogBudget()) console.log(`${r.name}  ours ${r.ours.toFixed(0)} ${r.unit}  baseline ${r.baseline.toFixed(0)}  ratio ${(r.ours / r.baseline).toFixed(2)}  ${r.note ?? ''}`);
}

// `npm run bench`: runs every benchmark module and prints one table of ours vs. baseline (medians).
import type { BenchRow } from './stats.js';

const MODULES: Array<[string, string]> = [
  ['./foundation.js', 'benchFoundation'],
  ['./policy-decide.js', 'benchPolicy'],
  ['./sandbox-run.js', 'benchSandbox'],
  ['./jobs-bench.js', 'benchJobs'],
  ['./log-budget-bench.js', 'benchLogBudget'],
  ['./data-adapters.js', 'benchAdapters'],
  ['./git-check-bench.js', 'benchGitCheck'],
  ['./helpers-bench.js', 'benchHelpers'],
  ['./control-bench.js', 'benchControl'],
  ['./tasks-bench.js', 'benchTasks'],
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const [file, fn] of MODULES) {
  if (only.length > 0 && !only.some((o) => file.includes(o))) continue;
  let mod: Record<string, () => Promise<BenchRow[]>>;
  try {
    mod = (await import(file)) as typeof mod;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') continue;
    throw err;
  }
  process.stderr.write(`running ${file} …\n`);
  rows.push(...(await mod[fn]!()));
}

const fmt = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2)) : '-');
const table = [['scenario', 'ours', 'baseline', 'ratio', 'unit', 'note']];
for (const r of rows) table.push([r.name, fmt(r.ours), fmt(r.baseline), r.baseline ? `${(r.ours / r.baseline).toFixed(2)}×` : '-', r.unit, r.note ?? '']);
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const [i, row] of table.entries()) {
  process.stdout.write(`${row.map((c, j) => c.padEnd(widths[j]!)).join(' | ')}\n`);
  if (i === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('-|-')}\n`);
}

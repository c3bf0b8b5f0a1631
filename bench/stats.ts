// Small statistics helpers for the benchmarks: medians, percentiles, timing.
export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export interface BenchRow {
  name: string;
  ours: number;
  baseline: number;
  unit: string;
  note?: string;
}

/** Runs `a` and `b` alternately `n` times and returns both sample sets (interleaving evens out noise). */
export async function interleave(n: number, a: () => Promise<number>, b: () => Promise<number>): Promise<[number[], number[]]> {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    xs.push(await a());
    ys.push(await b());
  }
  return [xs, ys];
}

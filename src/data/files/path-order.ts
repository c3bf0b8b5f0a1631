// Component-wise path ordering: the order a sorted depth-first walk visits paths in.

/** Compares two relative paths component by component (so `a/b` sorts before `a-b`). */
export function comparePaths(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/** Byte-order comparison of two names, used to sort directory entries. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `dir` (a relative path) is an ancestor of `p`. */
export function isAncestor(dir: string, p: string): boolean {
  return dir === '' || p.startsWith(dir + '/');
}

// Where a configuration path can be changed from: every directory the kernel looks in to resolve
// it, following symbolic links hop by hop (a link inside a root can be re-pointed even when its
// final target lies outside), up to the first entry that does not exist yet (which can be created).
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_HOPS = 40;

/** The directories looked in, in order, to resolve the absolute path `p`. */
export function directoriesTraversed(p: string): string[] {
  const out: string[] = [];
  const names = p.split('/');
  let cur = '/';
  let hops = 0;
  while (names.length > 0) {
    const name = names.shift()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      cur = dirname(cur);
      continue;
    }
    out.push(cur);
    const entry = join(cur, name);
    const st = lstatOrUndefined(entry);
    if (!st) break;
    if (st.isSymbolicLink() && hops++ < MAX_HOPS) {
      const target = readlinkSync(entry);
      names.unshift(...target.split('/'));
      if (target.startsWith('/')) cur = '/';
      continue;
    }
    cur = entry;
  }
  return out;
}

/** The first write root that holds a directory on the way to `location`, with that directory. */
export function exposedLocation(location: string, roots: readonly string[]): { root: string; dir: string } | undefined {
  for (const dir of directoriesTraversed(location)) {
    const root = roots.find((r) => r === '/' || dir === r || dir.startsWith(`${r}/`));
    if (root) return { root, dir };
  }
  return undefined;
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

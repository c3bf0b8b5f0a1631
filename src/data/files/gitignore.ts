// A small .gitignore reader: the root-level file only, enough to keep generated trees out of walks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';

/** Tests a path relative to the walk root; `isDir` enables trailing-slash patterns. */
export type IgnoreTest = (rel: string, isDir: boolean) => boolean;

/** Reads `<root>/.gitignore` into a matcher (negations are not supported and are skipped). */
export function loadGitignore(root: string): IgnoreTest | null {
  let text: string;
  try {
    text = readFileSync(join(root, '.gitignore'), 'utf8');
  } catch {
    return null;
  }
  const rules = text.split(/\r?\n/).map(parseLine).filter((r): r is Rule => r !== null);
  if (rules.length === 0) return null;
  return (rel, isDir) => rules.some((r) => (!r.dirOnly || isDir) && r.match(rel));
}

interface Rule {
  dirOnly: boolean;
  match: (rel: string) => boolean;
}

function parseLine(raw: string): Rule | null {
  let p = raw.trim();
  if (p === '' || p.startsWith('#') || p.startsWith('!')) return null;
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  if (p === '') return null;
  const glob = anchored ? p : `**/${p}`;
  return { dirOnly, match: picomatch(glob, { dot: true }) };
}

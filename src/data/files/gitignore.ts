// A small .gitignore reader: the root-level file only, enough to keep generated trees out of walks.
// The file is attacker-controlled content in the tree: it is opened through the verified-open helper
// (no final symlink, never blocks on a FIFO, regular files inside the roots only) and read up to a
// size cap. A file that cannot be applied is reported in a note, never silently dropped.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { openVerified } from '../open-checked.js';
import { mayReadReal } from '../resolve-path.js';

/** Tests a path relative to the walk root; `isDir` enables trailing-slash patterns. */
export type IgnoreTest = (rel: string, isDir: boolean) => boolean;

/** Ignore files larger than this are not applied (and the result says so). */
export const MAX_IGNORE_BYTES = 1 << 20;

export interface LoadedIgnore {
  test: IgnoreTest | null;
  /** Why `<root>/.gitignore` exists but was not applied. */
  note?: string;
}

/** Reads `<root>/.gitignore` into a matcher (negations are not supported and are skipped). */
export async function loadGitignore(deps: AppDeps, root: string): Promise<LoadedIgnore> {
  const path = join(root, '.gitignore');
  const text = await readIgnoreFile(deps, path);
  if (typeof text !== 'string') return text;
  const rules = text.split(/\r?\n/).map(parseLine).filter((r): r is Rule => r !== null);
  if (rules.length === 0) return { test: null };
  return { test: (rel, isDir) => rules.some((r) => (!r.dirOnly || isDir) && r.match(rel)) };
}

// The file's text, or the LoadedIgnore to return when it is absent or refused.
async function readIgnoreFile(deps: AppDeps, path: string): Promise<string | LoadedIgnore> {
  let f;
  try {
    const l = await lstat(path);
    if (l.isSymbolicLink()) return { test: null, note: `${path} was not applied: it is a symlink, which is not followed (git does not follow one either)` };
    if (!mayReadReal(deps, path)) return { test: null, note: `${path} was not applied: it is outside what this server may read` };
    f = await openVerified(deps, path, { kind: 'file', tool: 'the .gitignore reader' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { test: null };
    if (err instanceof AppError && err.errorClass === 'not_found') return { test: null };
    const why = err instanceof AppError ? err.message : String(err);
    return { test: null, note: `${path} was not applied: ${why}` };
  }
  try {
    if (f.stat.size > MAX_IGNORE_BYTES) return { test: null, note: tooBig(path) };
    const buf = Buffer.alloc(MAX_IGNORE_BYTES + 1);
    const { bytesRead } = await f.fh.read(buf, 0, buf.length, 0);
    if (bytesRead > MAX_IGNORE_BYTES) return { test: null, note: tooBig(path) };
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await f.fh.close();
  }
}

const tooBig = (path: string) => `${path} was not applied: larger than ${MAX_IGNORE_BYTES} bytes`;

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

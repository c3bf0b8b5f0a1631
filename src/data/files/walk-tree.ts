// A sorted, budgeted depth-first walk that never follows symlinks unless asked (and then only inside the roots).
// Each directory is read through a descriptor verified to be exactly the real path the walk expects
// (open-checked.ts), so a directory swapped for a symlink mid-walk yields nothing from elsewhere.
import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../../control/deps.js';
import { readDirVerifiedAsync } from '../read-dir-verified.js';
import { followableTarget, mayReadReal } from '../resolve-path.js';
import { makeTicker } from '../yield-loop.js';
import type { IgnoreTest } from './gitignore.js';
import { compareNames, comparePaths, isAncestor } from './path-order.js';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  rel: string;
  abs: string;
  kind: EntryKind;
  depth: number;
  stats?: Stats;
}

export interface WalkOptions {
  deps: AppDeps;
  root: string;
  /** Children of root have depth 1; 1 means "this directory only". */
  maxDepth: number;
  skipDirs: ReadonlySet<string> | null;
  includeHidden: boolean;
  ignore: IgnoreTest | null;
  followSymlinks: boolean;
  /** Walk in descending order (children before their directory). */
  reverse: boolean;
  stat: boolean;
  deadline: number;
  /** Resume strictly after this relative path in walk order. */
  after?: string;
}

/** Counters shared with the caller: entries seen, and whether the time budget cut the walk short. */
export interface WalkState {
  scanned: number;
  partial: boolean;
}

/** Yields entries below opts.root in component-wise path order (reverse: the exact reverse). */
export async function* walkTree(opts: WalkOptions, state: WalkState): AsyncGenerator<WalkEntry> {
  const visited = new Set<string>([opts.root]);
  // Sync fs calls are several times faster than promises for lstat-heavy walks; the ticker hands
  // the event loop back every 500 entries so other requests keep flowing.
  yield* walkDir({ ...opts, tick: makeTicker(500) }, state, { abs: opts.root, rel: '', depth: 0 }, visited);
}

interface DirRef {
  abs: string;
  rel: string;
  depth: number;
}

type Walk = WalkOptions & { tick: () => Promise<void> | undefined };

async function* walkDir(opts: Walk, state: WalkState, dir: DirRef, visited: Set<string>): AsyncGenerator<WalkEntry> {
  // dir.abs is a real path: the checked root plus names of verified, non-symlink directories (or a
  // followed symlink's checked realpath). Names and lstat come from that very directory.
  const { dirents, stats, partial } = await readDirVerifiedAsync(dir.abs, opts.stat, opts.deadline);
  if (partial) state.partial = true;
  dirents.sort((a, b) => (opts.reverse ? -1 : 1) * compareNames(a.name, b.name));
  for (const d of dirents) {
    if (Date.now() > opts.deadline) return void (state.partial = true);
    await opts.tick();
    if (!opts.includeHidden && d.name.startsWith('.')) continue;
    const rel = dir.rel === '' ? d.name : `${dir.rel}/${d.name}`;
    const abs = join(dir.abs, d.name);
    if (!mayReadReal(opts.deps, abs)) continue;
    const entry = toEntry(opts, d, { abs, rel, depth: dir.depth + 1 }, stats);
    if (entry === null) continue;
    state.scanned++;
    const position = opts.after === undefined ? 1 : (opts.reverse ? -1 : 1) * comparePaths(rel, opts.after);
    const descend = entry.kind === 'dir' && entry.depth < opts.maxDepth && (position > 0 || isAncestor(rel, opts.after!));
    if (position > 0 && !opts.reverse) yield entry;
    if (descend) {
      const real = entry.abs;
      if (!visited.has(real)) {
        visited.add(real);
        yield* walkDir(opts, state, entry, visited);
        visited.delete(real);
      }
    }
    if (position > 0 && opts.reverse) yield entry;
  }
}

function kindOf(d: Dirent | Stats): EntryKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  return d.isFile() ? 'file' : 'other';
}

// Returns null for entries the walk must leave out (skip dirs, ignored, vanished).
function toEntry(opts: WalkOptions, d: Dirent, ref: DirRef, lstats: Map<string, Stats> | undefined): WalkEntry | null {
  let kind = kindOf(d);
  if (kind === 'dir' && opts.skipDirs?.has(d.name)) return null;
  if (opts.ignore?.(ref.rel, kind === 'dir')) return null;
  let abs = ref.abs;
  let stats: Stats | undefined;
  try {
    if (kind === 'symlink' && opts.followSymlinks) {
      const target = followableTarget(opts.deps, ref.abs);
      if (target !== null) {
        // target is a checked realpath (no final symlink): lstat so a later swap is not followed.
        stats = lstatSync(target);
        kind = kindOf(stats);
        abs = target;
      }
    }
    if (opts.stat && stats === undefined) {
      stats = lstats?.get(d.name);
      if (stats === undefined) return null;
    }
  } catch {
    return null;
  }
  return { rel: ref.rel, abs, kind, depth: ref.depth, stats };
}

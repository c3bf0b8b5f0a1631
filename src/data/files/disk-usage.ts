// disk_usage: allocated bytes per entry under a directory (like `du -a -d N`), lstat only, budgeted.
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../../control/deps.js';
import { readDirVerifiedAsync } from '../read-dir-verified.js';
import { mayReadReal } from '../resolve-path.js';
import { makeTicker } from '../yield-loop.js';
import { resolveDir } from './walk-setup.js';

export interface DiskUsageArgs {
  path: string;
  max_depth: number;
  limit: number;
  time_budget_ms: number;
  include_skipped: boolean;
}

export interface DuEntry {
  path: string;
  size_bytes: number;
  files: number;
}

interface Walk {
  deps: AppDeps;
  maxDepth: number;
  deadline: number;
  skip: ReadonlySet<string> | null;
  seen: Set<string>;
  entries: DuEntry[];
  limit: number;
  partial: boolean;
  tick: () => Promise<void> | undefined;
}

/** Sums sizes below `args.path`; each inode counts once, symlinks are not followed. */
export async function diskUsage(deps: AppDeps, args: DiskUsageArgs) {
  const root = await resolveDir(deps, args.path, 'disk_usage');
  const w: Walk = {
    deps, maxDepth: args.max_depth, deadline: Date.now() + args.time_budget_ms, limit: args.limit, partial: false, entries: [], seen: new Set(),
    skip: args.include_skipped ? null : new Set(deps.config.adapters.skip_dirs), tick: makeTicker(),
  };
  const total = await sumDir(w, root, '', 0);
  const entries = w.entries.sort(bySize).slice(0, args.limit);
  return { root, entries, total_bytes: total.size_bytes, total_files: total.files, partial: w.partial, truncated: w.partial || w.entries.length > args.limit };
}

function bySize(a: DuEntry, b: DuEntry): number {
  return b.size_bytes - a.size_bytes || (a.path < b.path ? -1 : 1);
}

// Keeps the entry list bounded: trimmed to the best `limit` whenever it doubles.
function record(w: Walk, e: DuEntry): void {
  w.entries.push(e);
  if (w.entries.length > w.limit * 2 + 64) w.entries = w.entries.sort(bySize).slice(0, w.limit + 1);
}

async function sumDir(w: Walk, abs: string, rel: string, depth: number): Promise<DuEntry> {
  const acc: DuEntry = { path: rel, size_bytes: 0, files: 0 };
  // abs is a real path (checked root + names of non-symlink directories); names and lstat are read
  // through a descriptor verified to be that directory, so a mid-walk symlink swap yields nothing.
  const { dirents, stats, partial } = await readDirVerifiedAsync(abs, true, w.deadline);
  if (partial) w.partial = true;
  for (const { name } of dirents) {
    if (Date.now() > w.deadline) return ((w.partial = true), acc);
    await w.tick();
    const childAbs = join(abs, name);
    const childRel = rel === '' ? name : `${rel}/${name}`;
    if (!mayReadReal(w.deps, childAbs)) continue;
    const st = stats?.get(name);
    if (st === undefined) continue;
    const e = await measure(w, st, childAbs, childRel, depth + 1, name);
    if (e === null) continue;
    acc.size_bytes += e.size_bytes;
    acc.files += e.files;
    if (depth + 1 <= w.maxDepth) record(w, e);
  }
  return acc;
}

async function measure(w: Walk, st: Stats, abs: string, rel: string, depth: number, name: string): Promise<DuEntry | null> {
  if (st.isDirectory()) {
    if (w.skip?.has(name)) return null;
    const sub = await sumDir(w, abs, rel, depth);
    return { path: rel, size_bytes: sub.size_bytes + st.blocks * 512, files: sub.files };
  }
  if (st.nlink > 1) {
    const id = `${st.dev}:${st.ino}`;
    if (w.seen.has(id)) return { path: rel, size_bytes: 0, files: 1 };
    w.seen.add(id);
  }
  return { path: rel, size_bytes: st.blocks * 512, files: 1 };
}

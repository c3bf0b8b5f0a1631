// list_files: a filtered, sorted, paginated listing of a directory tree within time and entry budgets.
import type { Stats } from 'node:fs';
import picomatch from 'picomatch';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { resolveDir, walkOptionsFor } from './walk-setup.js';
import { walkTree, type WalkEntry, type WalkState } from './walk-tree.js';
import { collectTop, type Ranked } from './top-k.js';

export interface ListFilesArgs {
  path: string;
  pattern?: string;
  recursive: boolean;
  max_depth?: number;
  min_size_bytes?: number;
  max_size_bytes?: number;
  modified_after?: string;
  type: 'file' | 'dir' | 'symlink' | 'any';
  sort_by: 'name' | 'size' | 'modified';
  order: 'asc' | 'desc';
  follow_symlinks: boolean;
  include_hidden: boolean;
  include_skipped: boolean;
  limit: number;
  cursor?: string;
  time_budget_ms?: number;
}

export interface FileItem {
  path: string;
  type: string;
  size_bytes: number;
  modified: string;
  is_executable: boolean;
}

export interface ListFilesResult {
  root: string;
  files: FileItem[];
  truncated: boolean;
  partial: boolean;
  next_cursor: string | null;
  scanned: number;
  /** What could not be applied (an ignore file refused or too large). */
  notes?: string[];
}

type Cursor = { shape: string; k: number; p: string };

/** Lists `args.path`; name order streams and stops early, size/modified order scans within the budget. */
export async function listFiles(deps: AppDeps, args: ListFilesArgs): Promise<ListFilesResult> {
  const root = await resolveDir(deps, args.path, 'list_files');
  const shape = `${args.sort_by}:${args.order}`;
  const cursor = args.cursor ? decodeCursor<Cursor>(args.cursor, shape) : undefined;
  const accept = makeFilter(args);
  const maxDepth = args.recursive ? (args.max_depth ?? Infinity) : 1;
  const state: WalkState = { scanned: 0, partial: false };
  const opts = await walkOptionsFor(deps, root, { ...args, maxDepth, stat: true, budgetMs: args.time_budget_ms ?? 10_000 });
  if (args.sort_by === 'name') {
    const walk = walkTree({ ...opts, reverse: args.order === 'desc', after: cursor?.p }, state);
    return { root, ...(await pageByName(walk, state, accept, args.limit, shape)), ...notesOf(opts.notes) };
  }
  const walk = walkTree({ ...opts, reverse: false }, state);
  const key = (s: Stats) => (args.sort_by === 'size' ? s.size : s.mtimeMs);
  const desc = args.order === 'desc';
  const ranked = async function* () {
    for await (const e of walk) if (accept(e)) yield { key: key(e.stats!), path: e.rel, entry: e } as Ranked<WalkEntry>;
  };
  const top = await collectTop(ranked(), { limit: args.limit, desc, after: cursor ? { key: cursor.k, path: cursor.p } : undefined });
  const files = top.items.map((r) => toItem(r.entry, r.entry.stats!));
  const last = top.items.at(-1);
  const next = top.more && last ? encodeCursor({ shape, k: last.key, p: last.path }) : null;
  return { root, files, truncated: top.more || state.partial, partial: state.partial, next_cursor: next, scanned: state.scanned, ...notesOf(opts.notes) };
}

async function pageByName(walk: AsyncGenerator<WalkEntry>, state: WalkState, accept: (e: WalkEntry) => boolean, limit: number, shape: string) {
  const files: FileItem[] = [];
  let lastRel: string | undefined;
  let more = false;
  for await (const e of walk) {
    if (!accept(e)) {
      lastRel = e.rel;
      continue;
    }
    if (files.length === limit) {
      more = true;
      break;
    }
    // Stats always come from the walk (lstat through the verified directory), never a second lookup by path.
    if (e.stats) files.push(toItem(e, e.stats));
    lastRel = e.rel;
  }
  const resumeAt = more ? files.at(-1)?.path : state.partial ? lastRel : undefined;
  const next_cursor = resumeAt !== undefined ? encodeCursor({ shape, k: 0, p: resumeAt }) : null;
  return { files, truncated: more || state.partial, partial: state.partial, next_cursor, scanned: state.scanned };
}

function makeFilter(args: ListFilesArgs): (e: WalkEntry) => boolean {
  const glob = args.pattern ? picomatch(args.pattern, { dot: true, basename: !args.pattern.includes('/') }) : null;
  let after: number | undefined;
  if (args.modified_after !== undefined) {
    after = Date.parse(args.modified_after);
    if (Number.isNaN(after)) throw new AppError('invalid_params', `modified_after "${args.modified_after}" is not an ISO date such as 2024-05-01T00:00:00Z`);
  }
  return (e) => {
    if (args.type !== 'any' && e.kind !== args.type) return false;
    if (glob && !glob(e.rel)) return false;
    const s = e.stats;
    if (args.min_size_bytes !== undefined && (!s || s.size < args.min_size_bytes)) return false;
    if (args.max_size_bytes !== undefined && (!s || s.size > args.max_size_bytes)) return false;
    return after === undefined || (s !== undefined && s.mtimeMs > after);
  };
}

function toItem(e: WalkEntry, s: Stats): FileItem {
  const type = e.kind;
  return { path: e.rel, type, size_bytes: s.size, modified: s.mtime.toISOString(), is_executable: type === 'file' && (s.mode & 0o111) !== 0 };
}

const notesOf = (notes: string[]) => (notes.length > 0 ? { notes } : {});

// The built-in search engine: a budgeted sorted walk plus a streaming line matcher (used without ripgrep).
import { closeSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import picomatch from 'picomatch';
import type { AppDeps } from '../../control/deps.js';
import { walkOptionsFor } from '../files/walk-setup.js';
import { walkTree, type WalkState } from '../files/walk-tree.js';
import { openFileVerifiedSync } from '../open-checked.js';
import { makeTicker } from '../yield-loop.js';
import { assertBoundedRegex } from './regex-guard.js';
import { compileQuery, ContextCollector, type EngineResult, type SearchArgs, type SearchMatch } from './search-types.js';

const CHUNK = 256 * 1024;
// A line longer than this is matched in pieces (minified files), keeping memory bounded.
const MAX_CARRY = 4 * 1024 * 1024;

/** Searches every text file under root; binary files (NUL in the first chunk) are skipped like ripgrep does. */
export async function searchBuiltin(deps: AppDeps, root: string, args: SearchArgs): Promise<EngineResult> {
  const re = compileQuery(args);
  if (args.regex) assertBoundedRegex(args.query);
  const glob = args.glob ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') }) : null;
  const state: WalkState = { scanned: 0, partial: false };
  const opts = await walkOptionsFor(deps, root, { ...args, maxDepth: Infinity, stat: false, budgetMs: args.time_budget_ms });
  const matches: SearchMatch[] = [];
  const collector = new ContextCollector(args.context_lines, matches);
  const buf = Buffer.alloc(CHUNK);
  const tick = makeTicker(200);
  let files = 0;
  for await (const e of walkTree(opts, state)) {
    if (e.kind !== 'file' || (glob && !glob(e.rel))) continue;
    files++;
    collector.reset();
    const budgetLeft = searchFile(e.abs, e.rel, { re, collector, buf, deadline: opts.deadline, matches, limit: args.max_results + 1 });
    if (!budgetLeft) state.partial = true;
    if (matches.length > args.max_results || state.partial) break;
    await tick();
  }
  const truncated = matches.length > args.max_results || state.partial;
  return { matches: matches.slice(0, args.max_results), truncated, partial: state.partial, files_scanned: files, ...(opts.notes.length > 0 ? { notes: opts.notes } : {}) };
}

interface FileScan {
  re: RegExp;
  collector: ContextCollector;
  buf: Buffer;
  deadline: number;
  matches: SearchMatch[];
  limit: number;
}

// Reads one file in chunks, splitting lines across chunk edges; returns false when the time budget ran out.
function searchFile(abs: string, rel: string, s: FileScan): boolean {
  // abs is the real path the walk produced; the descriptor must be that regular file (no FIFO, no swap).
  const fd = openFileVerifiedSync(abs);
  if (fd === null) return true;
  try {
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let n = 0;
    for (let pos = 0, first = true; ; first = false) {
      const got = readSync(fd, s.buf, 0, CHUNK, pos);
      if (got === 0) break;
      if (first && s.buf.subarray(0, Math.min(got, 8192)).includes(0)) return true;
      pos += got;
      const text = carry + decoder.write(s.buf.subarray(0, got));
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      if (carry.length > MAX_CARRY) (feed(s, rel, ++n, carry), (carry = ''));
      for (const l of lines) feed(s, rel, ++n, l);
      if (s.matches.length >= s.limit) return true;
      if (Date.now() > s.deadline) return false;
    }
    if (carry !== '') feed(s, rel, ++n, carry);
    return true;
  } finally {
    closeSync(fd);
  }
}

function feed(s: FileScan, rel: string, n: number, raw: string): void {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const m = s.matches.length < s.limit ? s.re.exec(line) : null;
  s.collector.line(rel, n, line, m ? m.index + 1 : undefined);
}

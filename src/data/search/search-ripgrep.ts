// The ripgrep engine: `rg --json` streamed, killed once max_results or the time budget is reached.
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { hasProcFd, openDirVerified } from '../open-checked.js';
import { mayReadReal } from '../resolve-path.js';
import { runHelper, type HelperResult } from '../../execution/helpers/run-helper.js';
import { makeLineSplitter } from './line-splitter.js';
import { rgArgs } from './rg-args.js';
import { ContextCollector, type EngineResult, type SearchArgs, type SearchMatch } from './search-types.js';
import { verifyMatches } from './verify-matches.js';

interface RgState {
  matches: SearchMatch[];
  collector: ContextCollector;
  file: string | null;
  allowed: boolean;
  filesScanned?: number;
}

/**
 * Runs ripgrep at `rg` over root (through execution's helper launch path: the read-only sandbox
 * view, cgroup, deadline = the time budget, tree kill) and maps its JSON events into matches with
 * context. rg starts in the checked root (pinned by a verified descriptor where no sandbox view
 * exists), never follows symlinks (rg-args), and its matches are re-read through verified
 * descriptors before return. Where the host cannot confine, rg still runs: its argv is ours.
 */
export async function searchRipgrep(deps: AppDeps, rg: string, root: string, args: SearchArgs): Promise<EngineResult> {
  const started = Date.now();
  const matches: SearchMatch[] = [];
  const st: RgState = { matches, collector: new ContextCollector(args.context_lines, matches), file: null, allowed: true };
  const rootFd = openDirVerified(root);
  if (rootFd === null) throw new AppError('path_denied', `${root} changed while file_search was starting (a symlink was swapped in); refusing to search it`, { rule: 'path.changed', hint: 'retry once the path is stable' });
  let halt: (() => void) | undefined;
  let halted = false;
  const split = makeLineSplitter(4 * 1024 * 1024, (l) => {
    if (halted) return;
    onEvent(deps, root, st, l);
    if (matches.length > args.max_results) ((halted = true), halt?.());
  });
  let r: HelperResult;
  try {
    r = await runHelper(deps, {
      program: rg, args: rgArgs(deps, args), cwd: root, cwdFd: hasProcFd() ? rootFd : undefined, unconfined: 'run', timeoutMs: args.time_budget_ms,
      onStdout: (b, stop) => ((halt = stop), split(b)),
    });
  } finally {
    closeSync(rootFd);
  }
  if (r.code === 2 && !r.stopped && !r.timedOut && matches.length === 0 && /regex|parse/i.test(r.stderr)) {
    throw new AppError('invalid_params', `ripgrep rejected the query: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`, { hint: 'simplify the regex or pass regex: false' });
  }
  // Verification shares the call's time budget, with at least a second left after ripgrep.
  const v = await verifyMatches(root, matches.slice(0, args.max_results), Math.max(started + args.time_budget_ms, Date.now() + 1000));
  const notes = v.unverifiedFiles > 0 ? [`matches in ${v.unverifiedFiles} file(s) were dropped: they could not be re-read for verification within the time budget; narrow path or glob`] : [];
  const truncated = matches.length > args.max_results || r.timedOut || notes.length > 0;
  return { matches: v.matches, truncated, partial: r.timedOut || notes.length > 0, files_scanned: st.filesScanned, ...(notes.length > 0 ? { notes } : {}) };
}

type RgText = { text?: string; bytes?: string };
const textOf = (t: RgText | undefined) => (t?.text ?? (t?.bytes ? Buffer.from(t.bytes, 'base64').toString('utf8') : ''));

function onEvent(deps: AppDeps, root: string, st: RgState, line: string): void {
  let ev: { type: string; data: Record<string, any> };
  try {
    ev = JSON.parse(line);
  } catch {
    return;
  }
  const d = ev.data;
  if (ev.type === 'begin') {
    st.file = textOf(d.path).replace(/^\.\//, '');
    st.allowed = mayReadReal(deps, join(root, st.file));
    st.collector.reset();
  } else if ((ev.type === 'match' || ev.type === 'context') && st.allowed && st.file !== null) {
    const text = textOf(d.lines).replace(/\r?\n$/, '');
    const column = ev.type === 'match' ? columnOf(d.lines, d.submatches) : undefined;
    st.collector.line(st.file, d.line_number, text, column);
  } else if (ev.type === 'summary') {
    st.filesScanned = d.stats?.searches;
  }
}

// ripgrep reports byte offsets; columns are character positions (1-based) like the built-in engine.
function columnOf(lines: RgText, subs: Array<{ start: number }> | undefined): number {
  const start = subs?.[0]?.start ?? 0;
  const raw = lines.text !== undefined ? Buffer.from(lines.text, 'utf8') : Buffer.from(lines.bytes ?? '', 'base64');
  return raw.subarray(0, start).toString('utf8').length + 1;
}

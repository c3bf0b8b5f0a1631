// The ripgrep engine: `rg --json` streamed, killed once max_results or the time budget is reached.
import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { hasProcFd, openDirVerified } from '../open-checked.js';
import { mayReadReal } from '../resolve-path.js';
import { minimalEnv } from '../spawn-bounded.js';
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
 * Runs ripgrep at `rg` over root and maps its JSON events into matches with context. rg starts in
 * the root directory pinned by a verified descriptor (handed over as fd 3, cwd /proc/self/fd/3), never
 * follows symlinks (rg-args), and its matches are re-read through verified descriptors before return.
 */
export function searchRipgrep(deps: AppDeps, rg: string, root: string, args: SearchArgs): Promise<EngineResult> {
  const matches: SearchMatch[] = [];
  const st: RgState = { matches, collector: new ContextCollector(args.context_lines, matches), file: null, allowed: true };
  const rootFd = openDirVerified(root);
  if (rootFd === null) return Promise.reject(new AppError('path_denied', `${root} changed while file_search was starting (a symlink was swapped in); refusing to search it`, { rule: 'path.changed', hint: 'retry once the path is stable' }));
  return new Promise((resolve, reject) => {
    const pinned = hasProcFd();
    // uv_spawn returns once the child has exec'd, so the parent's copy can be closed right away.
    const child = (() => {
      try {
        return spawn(rg, rgArgs(deps, args), { cwd: pinned ? '/proc/self/fd/3' : root, env: minimalEnv(), shell: false, stdio: ['ignore', 'pipe', 'pipe', pinned ? rootFd : 'ignore'] });
      } finally {
        closeSync(rootFd);
      }
    })();
    let killed = false;
    let timedOut = false;
    const stop = () => ((killed = true), child.kill('SIGKILL'));
    const timer = setTimeout(() => ((timedOut = true), stop()), args.time_budget_ms);
    const split = makeLineSplitter(4 * 1024 * 1024, (l) => {
      if (!killed) onEvent(deps, root, st, l);
      if (!killed && matches.length > args.max_results) stop();
    });
    child.stdout!.on('data', split);
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => void (stderr.length < 4096 && (stderr += b.toString('utf8'))));
    child.on('error', (e) => (clearTimeout(timer), reject(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 2 && !killed && matches.length === 0 && /regex|parse/i.test(stderr)) {
        return reject(new AppError('invalid_params', `ripgrep rejected the query: ${stderr.trim().split('\n').slice(-3).join(' ')}`, { hint: 'simplify the regex or pass regex: false' }));
      }
      const truncated = matches.length > args.max_results || timedOut;
      resolve({ matches: verifyMatches(root, matches.slice(0, args.max_results)), truncated, partial: timedOut, files_scanned: st.filesScanned });
    });
  });
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

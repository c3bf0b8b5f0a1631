// git_status: branch, upstream, ahead/behind and entries parsed from `git status --porcelain=v2 --branch -z`.
import type { AppDeps } from '../../control/deps.js';
import { runGitChecked } from './run-git.js';
import { gitCwd } from './git-cwd.js';

export interface StatusEntry {
  path: string;
  orig_path?: string;
  index: string;
  worktree: string;
  kind: 'ordinary' | 'renamed' | 'unmerged' | 'untracked' | 'ignored';
}

export interface GitStatus {
  branch: string | null;
  head: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  detached: boolean;
  entries: StatusEntry[];
  truncated: boolean;
}

const MAX_ENTRIES = 1000;

/** Runs and parses git status for the repository containing `path`. */
export async function gitStatus(deps: AppDeps, path: string, signal?: AbortSignal): Promise<GitStatus & { repo: string }> {
  const cwd = await gitCwd(deps, path);
  const r = await runGitChecked(deps, cwd, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], { maxBytes: 4 << 20, timeoutMs: 15000, signal });
  const s = parseStatusV2(r.stdout.toString('utf8'));
  return { repo: cwd, ...s, truncated: s.truncated || r.truncated };
}

/** Parses porcelain v2 output with -z (renames carry their original path in the next field). */
export function parseStatusV2(out: string): GitStatus {
  const s: GitStatus = { branch: null, head: null, upstream: null, ahead: 0, behind: 0, detached: false, entries: [], truncated: false };
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.startsWith('# ')) header(s, f);
    else if (f.length > 0 && s.entries.length >= MAX_ENTRIES) s.truncated = true;
    else if (f.startsWith('1 ')) s.entries.push(change(f.split(' '), 8, 'ordinary'));
    else if (f.startsWith('2 ')) s.entries.push({ ...change(f.split(' '), 9, 'renamed'), orig_path: fields[++i] });
    else if (f.startsWith('u ')) s.entries.push(change(f.split(' '), 10, 'unmerged'));
    else if (f.startsWith('? ')) s.entries.push({ path: f.slice(2), index: '?', worktree: '?', kind: 'untracked' });
    else if (f.startsWith('! ')) s.entries.push({ path: f.slice(2), index: '!', worktree: '!', kind: 'ignored' });
  }
  return s;
}

function header(s: GitStatus, f: string): void {
  const [, key, ...rest] = f.split(' ');
  const v = rest.join(' ');
  if (key === 'branch.oid') s.head = v === '(initial)' ? null : v;
  else if (key === 'branch.head') ((s.detached = v === '(detached)'), (s.branch = s.detached ? null : v));
  else if (key === 'branch.upstream') s.upstream = v;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(v);
    if (m) ((s.ahead = Number(m[1])), (s.behind = Number(m[2])));
  }
}

// The path is everything after the fixed fields (it may contain spaces).
function change(parts: string[], pathAt: number, kind: StatusEntry['kind']): StatusEntry {
  const xy = parts[1] ?? '..';
  return { path: parts.slice(pathAt).join(' '), index: xy[0], worktree: xy[1], kind };
}

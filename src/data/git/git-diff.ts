// git_diff: the working-tree, staged or ref diff, byte-budgeted, never running external diff or textconv.
import type { AppDeps } from '../../control/deps.js';
import { gitCwd } from './git-cwd.js';
import { checkRef } from './git-refs.js';
import { runGitChecked } from './run-git.js';

export interface GitDiffArgs {
  path: string;
  staged: boolean;
  ref?: string;
  max_bytes: number;
}

/** Returns the unified diff (cut at max_bytes) and the number of changed files from --numstat. */
export async function gitDiff(deps: AppDeps, args: GitDiffArgs, signal?: AbortSignal) {
  const cwd = await gitCwd(deps, args.path);
  const base = ['diff', '--no-ext-diff', '--no-textconv', '--no-color'];
  if (args.staged) base.push('--cached');
  const tail = args.ref === undefined ? ['--'] : ['--end-of-options', checkRef(args.ref), '--'];
  const opts = { timeoutMs: 15000, signal };
  const r = await runGitChecked(deps, cwd, [...base, ...tail], { ...opts, maxBytes: args.max_bytes });
  const stat = await runGitChecked(deps, cwd, [...base, '--numstat', '-z', ...tail], { ...opts, maxBytes: 1 << 20 });
  const files = countNumstat(stat.stdout.toString('utf8'));
  const diff = trimToChar(r.stdout);
  return { repo: cwd, diff, truncated: r.truncated, bytes: r.stdout.length, files_changed: files };
}

// numstat -z: "added\tdeleted\tpath\0", renames as "added\tdeleted\t\0old\0new\0".
function countNumstat(out: string): number {
  const f = out.split('\0');
  let n = 0;
  for (let i = 0; i < f.length; i++) {
    if (!/^(\d+|-)\t(\d+|-)\t/.test(f[i])) continue;
    n++;
    if (f[i].endsWith('\t')) i += 2;
  }
  return n;
}

function trimToChar(b: Buffer): string {
  const s = b.toString('utf8');
  return s.endsWith('\uFFFD') ? s.slice(0, -1) : s;
}

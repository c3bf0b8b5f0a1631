// git_log: a bounded commit list parsed from a NUL-separated `git log` format.
import type { AppDeps } from '../../control/deps.js';
import { gitCwd } from './git-cwd.js';
import { checkRef } from './git-refs.js';
import { runGit, runGitChecked } from './run-git.js';

export interface Commit {
  hash: string;
  author: string;
  email: string;
  date: string;
  subject: string;
}

const FORMAT = '%H%x00%an%x00%ae%x00%aI%x00%s%x00';

/** Lists up to `limit` commits reachable from `ref` (default HEAD); an empty repository gives []. */
export async function gitLog(deps: AppDeps, args: { path: string; limit: number; ref?: string }, signal?: AbortSignal) {
  const cwd = await gitCwd(deps, args.path);
  const rev = args.ref === undefined ? 'HEAD' : checkRef(args.ref);
  const head = await runGit(deps, cwd, ['rev-parse', '--verify', '--quiet', 'HEAD'], { maxBytes: 4096, timeoutMs: 5000, signal });
  if (args.ref === undefined && head.code !== 0) {
    await runGitChecked(deps, cwd, ['rev-parse', '--git-dir'], { maxBytes: 4096, timeoutMs: 5000, signal });
    return { repo: cwd, commits: [] as Commit[], truncated: false };
  }
  const r = await runGitChecked(deps, cwd, ['log', `--max-count=${args.limit + 1}`, `--format=${FORMAT}`, '--no-ext-diff', '--no-textconv', '--end-of-options', rev, '--'], { maxBytes: 2 << 20, timeoutMs: 15000, signal });
  const commits = parseLog(r.stdout.toString('utf8'));
  return { repo: cwd, commits: commits.slice(0, args.limit), truncated: commits.length > args.limit || r.truncated };
}

/** Parses records of five NUL-terminated fields (each record also ends with git's newline). */
export function parseLog(out: string): Commit[] {
  const f = out.split('\0');
  const commits: Commit[] = [];
  for (let i = 0; i + 4 < f.length; i += 5) {
    const hash = f[i].replace(/^\n/, '');
    if (!/^[0-9a-f]{40,64}$/.test(hash)) break;
    commits.push({ hash, author: f[i + 1], email: f[i + 2], date: f[i + 3], subject: f[i + 4] });
  }
  return commits;
}

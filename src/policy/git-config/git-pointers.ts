// The pointers inside a repository's metadata (pure): a `.git` file's `gitdir:`, `commondir`,
// `objects/info/alternates` lines, include paths. Each is read strictly and resolved as git would;
// the caller realpaths the result and keeps it inside the roots.
import { posix } from 'node:path';
import { isInside } from '../sensitive-paths.js';
import { unsafeGit } from './judge-git-config.js';

/** True when the absolute real path `p` lies inside one of the (real) roots. */
export function insideRoots(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => isInside(p, r));
}

/** The target of a `.git` file (`gitdir: PATH`), resolved against the file's directory. */
export function parseGitFile(text: string, file: string): string {
  const m = /^gitdir: ([^\n\r\0]+)\r?\n?$/.exec(text);
  if (!m) unsafeGit(`.git file ${file}`, 'is not a single "gitdir: PATH" line');
  return posix.resolve(posix.dirname(file), m[1]!);
}

/** The common directory named by a `commondir` file, resolved against the git directory. */
export function parseCommonDir(text: string, gitDir: string): string {
  const t = text.replace(/\r?\n$/, '');
  if (t === '' || /[\n\r\0]/.test(t)) unsafeGit(`commondir file in ${gitDir}`, 'is not a single path line');
  return posix.resolve(gitDir, t);
}

/** The object directories listed in `objects/info/alternates` (relative to the objects directory). */
export function parseAlternates(text: string, objectsDir: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const l = raw.replace(/\r$/, '');
    if (l === '' || l.startsWith('#')) continue;
    if (l.startsWith('"') || /[\0]/.test(l)) unsafeGit(`alternates file in ${objectsDir}/info`, `has a line Workbench does not parse with confidence (${JSON.stringify(l.slice(0, 80))})`);
    out.push(posix.resolve(objectsDir, l));
  }
  return out;
}

/** Where an include path points: relative to the including file; `~` and `%(prefix)` are refused. */
export function includeTarget(path: string, fromFile: string, key: string): string {
  if (path.startsWith('~') || path.startsWith('%(')) unsafeGit(`setting ${key} (${fromFile})`, `points at ${JSON.stringify(path)}, outside the repository (home or install prefix)`);
  return posix.resolve(posix.dirname(fromFile), path);
}

/** Where core.worktree points: relative to the git directory. */
export function worktreeTarget(path: string, gitDir: string): string {
  if (path.startsWith('~')) unsafeGit(`setting core.worktree (${gitDir}/config)`, `points at ${JSON.stringify(path)}, outside the repository`);
  return posix.resolve(gitDir, path);
}

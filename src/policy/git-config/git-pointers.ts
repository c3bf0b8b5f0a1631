// The pointers inside a repository's metadata (pure): a `.git` file's `gitdir:`, `commondir`,
// `objects/info/alternates` lines, include paths. Each is read strictly and returned as written: the
// caller resolves it the way the OS does (never lexically — `..` after a symlink leaves its target)
// and keeps it inside the roots.
import { isInside } from '../sensitive-paths.js';
import { unsafeGit } from './judge-git-config.js';

/** True when the absolute real path `p` lies inside one of the (real) roots. */
export function insideRoots(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => isInside(p, r));
}

/** The target of a `.git` file (`gitdir: PATH`), as written (relative to the file's directory). */
export function parseGitFile(text: string, file: string): string {
  const m = /^gitdir: ([^\n\r\0]+)\r?\n?$/.exec(text);
  if (!m) unsafeGit(`.git file ${file}`, 'is not a single "gitdir: PATH" line');
  return m[1]!;
}

/** The common directory named by a `commondir` file, as written (relative to the git directory). */
export function parseCommonDir(text: string, gitDir: string): string {
  const t = text.replace(/\r?\n$/, '');
  if (t === '' || /[\n\r\0]/.test(t)) unsafeGit(`commondir file in ${gitDir}`, 'is not a single path line');
  return t;
}

/** The object directories listed in `objects/info/alternates`, as written (relative to the objects directory). */
export function parseAlternates(text: string, objectsDir: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const l = raw.replace(/\r$/, '');
    if (l === '' || l.startsWith('#')) continue;
    if (l.startsWith('"') || /[\0]/.test(l)) unsafeGit(`alternates file in ${objectsDir}/info`, `has a line Workbench does not parse with confidence (${JSON.stringify(l.slice(0, 80))})`);
    out.push(l);
  }
  return out;
}

/** An include path as written (relative to the including file's directory); `~` and `%(prefix)` are refused. */
export function includeTarget(path: string, fromFile: string, key: string): string {
  if (path.startsWith('~') || path.startsWith('%(')) unsafeGit(`setting ${key} (${fromFile})`, `points at ${JSON.stringify(path)}, outside the repository (home or install prefix)`);
  return path;
}

/** core.worktree as written (relative to the git directory); `~` is refused. */
export function worktreeTarget(path: string, gitDir: string): string {
  if (path.startsWith('~')) unsafeGit(`setting core.worktree (${gitDir}/config)`, `points at ${JSON.stringify(path)}, outside the repository`);
  return path;
}

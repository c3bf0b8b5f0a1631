// Resolves a path written in repository metadata (include.path, a `.git` file's gitdir:, commondir,
// alternates, core.worktree) the way the OS does when git opens it — never lexically: a `..` after a
// symlink climbs out of the symlink's target, not out of the link. The longest existing prefix is
// realpath'd; in the part that does not exist, `..` is refused (what it would mean cannot be known).
import { join } from 'node:path';
import { realpath } from 'node:fs/promises';
import { unsafeGit } from '../../../policy/git-config/judge-git-config.js';
import { realInside, unreadable, type CheckCtx } from './meta-reader.js';

/**
 * `rel` (absolute, or relative to directory `base`) with every existing directory component resolved
 * by the OS; the last component is not followed (git opens that name, and relative paths inside the
 * file it names resolve against the directory that holds it).
 */
export async function resolvePointer(base: string, rel: string, what: string): Promise<string> {
  const parts = (rel.startsWith('/') ? rel : `${base}/${rel}`).split('/').filter((p) => p !== '');
  const last = parts[parts.length - 1];
  const followAll = last === undefined || last === '.' || last === '..';
  const dirParts = followAll ? parts : parts.slice(0, -1);
  for (let k = dirParts.length; k >= 0; k--) {
    const real = await realOrNull(`/${dirParts.slice(0, k).join('/')}`, what);
    if (real === null) continue;
    const rest = [...dirParts.slice(k), ...(followAll ? [] : [last!])].filter((p) => p !== '.');
    if (rest.includes('..')) unsafeGit(what, `names ${JSON.stringify(rel)}, which uses ".." below a directory that does not exist (${real}/${rest.join('/')}); Workbench resolves paths as the OS does and cannot tell where that leads`);
    return join(real, ...rest);
  }
  return unsafeGit(what, `names ${JSON.stringify(rel)}, which could not be resolved`);
}

/** A pointer git follows to something that must exist: its real path inside the roots, else a refusal. */
export async function existingTarget(ctx: CheckCtx, base: string, rel: string, what: string): Promise<string> {
  const real = await realInside(ctx, await resolvePointer(base, rel, what), what);
  if (real === null) unsafeGit(what, `names ${JSON.stringify(rel)}, which does not exist (git would fail or use something else)`);
  return real;
}

/** The real path of `p`, null when it does not exist; any other failure is a refusal. */
export async function realOrNull(p: string, what: string): Promise<string | null> {
  try {
    return await realpath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return unreadable(err, what);
  }
}

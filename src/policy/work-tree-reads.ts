// git subcommands that read or list the whole work tree (grep, ls-files, status, diff, …) are
// recursive reads, like `grep -r`: not just of the directory git starts in, but of the work tree
// that contains it (a `:/` pathspec or `status` reach the top). Both get the coverage check, so a
// state directory or secret anywhere in the tree refuses the command with `path.sensitive`.
import { posix } from 'node:path';
import { PolicyDenial } from './denial.js';
import { assertPath, realOf } from './paths.js';
import { coversSecrets } from './sensitive-paths.js';
import type { PolicyContext } from './types.js';

/** Checks `dir` (relative to cwd) and the top of the git work tree around it as recursive reads. */
export function assertWorkTreeRead(dir: string, cwd: string, ctx: PolicyContext, lenient: boolean): void {
  const real = assertPath(dir, cwd, ctx, { lenient, recursive: true });
  const top = workTreeTop(realOf(posix.resolve(cwd, real), ctx), ctx);
  if (top !== real && coversSecrets(top, ctx.homeDir, ctx.stateDir)) {
    throw new PolicyDenial('path.sensitive', `git reads the whole work tree ${top} (around ${dir}), which would reach sensitive files or Workbench's state directory; run git in a repository that does not contain them`, 'path_denied');
  }
}

/**
 * The widest tree git could take as the work tree around `real`: the HIGHEST directory at or above
 * it that holds any `.git` entry, up to git's ceiling; `real` if none. git climbs to the first VALID
 * `.git` and skips an invalid one (an empty directory, a junk file, a `gitdir:` to nowhere), and
 * validity (HEAD's content, objects/, refs/, …) is not something ctx.fs can judge, so no candidate
 * is trusted to stop the climb (fail closed). Taking the highest is the same as checking every
 * candidate: a parent's tree holds its child's. The ceiling mirrors GIT_CEILING_DIRECTORIES, which
 * every command gets (the read roots' parents, see gitCeilings): git never looks at or above it.
 */
function workTreeTop(real: string, ctx: PolicyContext): string {
  const ceilings = gitCeilings(ctx.readRoots);
  let top = real;
  for (let d = real; ; d = posix.dirname(d)) {
    if (ctx.fs.realpath(posix.join(d, '.git')) !== null) top = d;
    const parent = posix.dirname(d);
    if (parent === d || ceilings.has(parent)) return top;
  }
}

/** The read roots' parents (`/` only when `/` is itself a root), as the executor sets them for git. */
function gitCeilings(roots: readonly string[]): Set<string> {
  return new Set(roots.map((r) => posix.dirname(r)).filter((d) => d !== '/' || roots.includes('/')));
}

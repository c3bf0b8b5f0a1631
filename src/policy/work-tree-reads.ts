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

/** The nearest directory at or above `real` holding `.git` (a dir or a worktree file); `real` if none. */
function workTreeTop(real: string, ctx: PolicyContext): string {
  for (let d = real; ; d = posix.dirname(d)) {
    if (ctx.fs.realpath(posix.join(d, '.git')) !== null) return d;
    if (d === '/') return real;
  }
}

// Finds every git directory git could use from a directory. git's discovery looks, at each level up
// to a ceiling (the parents of the roots, as GIT_CEILING_DIRECTORIES tells git), for a `.git` (a
// directory or a `gitdir:` file), then for the directory itself as a bare repository, and skips a
// candidate its own validity rules reject. Those rules (HEAD's content, access(X_OK) on objects/refs,
// a symlinked HEAD, …) are not re-implemented here: every candidate on the way up is returned and
// checked, so the check never concludes "no repository" where git would find one.
import { dirname, join } from 'node:path';
import { lstat, realpath } from 'node:fs/promises';
import { parseGitFile } from '../../../policy/git-config/git-pointers.js';
import { unsafeGit } from '../../../policy/git-config/judge-git-config.js';
import { kindOf, readMetaText, unreadable, type CheckCtx } from './meta-reader.js';
import { existingTarget } from './resolve-pointer.js';

export interface FoundRepo {
  gitDir: string;
  workTree: string | null;
}

/** True when `name` exists in `dir` as anything (lstat: a dangling symlink counts). */
async function present(dir: string, name: string): Promise<boolean> {
  try {
    await lstat(join(dir, name));
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    return unreadable(err, join(dir, name));
  }
}

/**
 * True when `dir` might be a git directory by git's loosest reading: HEAD present as any type (a
 * file, or a symlink even to a missing ref) and objects and refs present as any type, or a commondir.
 */
export async function isGitDir(dir: string): Promise<boolean> {
  const [head, common, objects, refs] = await Promise.all(['HEAD', 'commondir', 'objects', 'refs'].map((n) => present(dir, n)));
  return head && (common || (objects && refs));
}

/**
 * The git directory of work tree `dir`: its `.git` directory (whatever it holds: git may accept what
 * looks odd, so it is checked), or where its `.git` file points (which must exist). A `.git` that is
 * neither (a FIFO, a dangling symlink, …) is refused: git's handling of it is not worth guessing.
 */
export async function gitDirOf(ctx: CheckCtx, dir: string): Promise<string | null> {
  const dotgit = join(dir, '.git');
  if (!(await present(dir, '.git'))) return null;
  const kind = await kindOf(dotgit);
  if (kind === 'dir') return dotgit;
  if (kind === 'file') return existingTarget(ctx, dir, parseGitFile((await readMetaText(ctx, dotgit, 4096)) ?? '', dotgit), `git directory named by the .git file ${dotgit}`);
  return unsafeGit(`entry ${dotgit}`, 'is neither a directory nor a "gitdir:" file, and Workbench cannot tell what git makes of it');
}

/** Every repository git could use from `start`, nearest first (empty when none below the ceilings). */
export async function discoverRepos(ctx: CheckCtx, start: string, ceilings: readonly string[]): Promise<FoundRepo[]> {
  let dir: string;
  try {
    dir = await realpath(start);
  } catch {
    return [];
  }
  const found: FoundRepo[] = [];
  for (;;) {
    const gitDir = await gitDirOf(ctx, dir);
    if (gitDir !== null) found.push({ gitDir, workTree: dir });
    if (await isGitDir(dir)) found.push({ gitDir: dir, workTree: null });
    const parent = dirname(dir);
    if (parent === dir || ceilings.includes(parent)) return found;
    dir = parent;
  }
}

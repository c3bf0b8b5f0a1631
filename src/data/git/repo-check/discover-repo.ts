// Finds the repository git would use from a directory, the way git's discovery does: at each level
// a `.git` (directory or `gitdir:` file), else the directory itself as a bare repository; upwards
// until a ceiling (the parents of the roots, as GIT_CEILING_DIRECTORIES tells git).
import { dirname, join } from 'node:path';
import { realpath } from 'node:fs/promises';
import { parseGitFile } from '../../../policy/git-config/git-pointers.js';
import { kindOf, readMetaText, type CheckCtx } from './meta-reader.js';

export interface FoundRepo {
  gitDir: string;
  workTree: string | null;
}

/** True when `dir` looks like a git directory to git: HEAD plus objects/ and refs/ (or a commondir). */
export async function isGitDir(dir: string): Promise<boolean> {
  const [head, common, objects, refs] = await Promise.all(['HEAD', 'commondir', 'objects', 'refs'].map((n) => kindOf(join(dir, n))));
  if (head === null) return false;
  return common === 'file' || (objects === 'dir' && refs === 'dir');
}

/** The git directory of work tree `dir` (its `.git` directory, or where its `.git` file points). */
export async function gitDirOf(ctx: CheckCtx, dir: string): Promise<string | null> {
  const dotgit = join(dir, '.git');
  const kind = await kindOf(dotgit);
  if (kind === 'file') return parseGitFile((await readMetaText(ctx, dotgit, 4096)) ?? '', dotgit);
  if (kind === 'dir' && (await isGitDir(dotgit))) return dotgit;
  return null;
}

/** The repository git would find from `start`, or null when there is none below the ceilings. */
export async function discoverRepo(ctx: CheckCtx, start: string, ceilings: readonly string[]): Promise<FoundRepo | null> {
  let dir: string;
  try {
    dir = await realpath(start);
  } catch {
    return null;
  }
  for (;;) {
    const gitDir = await gitDirOf(ctx, dir);
    if (gitDir !== null) return { gitDir, workTree: dir };
    if (await isGitDir(dir)) return { gitDir: dir, workTree: null };
    const parent = dirname(dir);
    if (parent === dir || ceilings.includes(parent)) return null;
    dir = parent;
  }
}

// The repository config check (SPEC §4.1 "Repository content is data"): before any git runs — the
// adapters' or a command's — the repository git would use, its includes, pointers and submodules are
// read (async, bounded, no child process) and judged by the allowlist in policy/git-config.
import { dirname } from 'node:path';
import type { GitTarget } from '../../../policy/git-config/git-stage-target.js';
import { checkGitDir } from './check-git-dir.js';
import { discoverRepo } from './discover-repo.js';
import { parseGitFile } from '../../../policy/git-config/git-pointers.js';
import { kindOf, newCheckCtx, readMetaText, type CheckScope } from './meta-reader.js';

export interface RepoCheck {
  /** The work tree (or bare git directory) git would use; null when there is no repository. */
  repository: string | null;
  /** How many git directories (the repository and its submodules) were checked. */
  gitDirs: number;
}

/** Throws PolicyDenial git.unsafe_config when the repository at `target` is not known harmless. */
export async function checkRepository(target: GitTarget, scope: CheckScope): Promise<RepoCheck> {
  const ctx = await newCheckCtx(scope);
  if (target.gitDir !== undefined) {
    // git accepts a `.git` file as --git-dir / GIT_DIR too, and follows it.
    const gitDir = (await kindOf(target.gitDir)) === 'file' ? parseGitFile((await readMetaText(ctx, target.gitDir, 4096)) ?? '', target.gitDir) : target.gitDir;
    await checkGitDir(ctx, gitDir, target.workTree ?? target.cwd);
    return { repository: target.gitDir, gitDirs: ctx.seen.size };
  }
  // The same ceilings git gets (GIT_CEILING_DIRECTORIES = the roots' parents, see gitCeilings).
  const ceilings = ctx.roots.map((r) => dirname(r)).filter((d) => d !== '/' || ctx.roots.includes('/'));
  const found = await discoverRepo(ctx, target.cwd, ceilings);
  if (found === null) return { repository: null, gitDirs: 0 };
  await checkGitDir(ctx, found.gitDir, target.workTree ?? found.workTree);
  return { repository: found.workTree ?? found.gitDir, gitDirs: ctx.seen.size };
}

// The repository config check (SPEC §4.1 "Repository content is data"): before any git runs — the
// adapters' or a command's — the repository git would use, its includes, pointers and submodules are
// read (async, bounded, no child process) and judged by the allowlist in policy/git-config.
import { dirname } from 'node:path';
import type { GitTarget } from '../../../policy/git-config/git-stage-target.js';
import { checkGitDir } from './check-git-dir.js';
import { discoverRepos } from './discover-repo.js';
import { existingTarget } from './resolve-pointer.js';
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
    const gitDir = (await kindOf(target.gitDir)) === 'file' ? await existingTarget(ctx, dirname(target.gitDir), parseGitFile((await readMetaText(ctx, target.gitDir, 4096)) ?? '', target.gitDir), `git directory named by the .git file ${target.gitDir}`) : target.gitDir;
    await checkGitDir(ctx, gitDir, target.workTree ?? target.cwd);
    return { repository: target.gitDir, gitDirs: ctx.seen.size };
  }
  // The same ceilings git gets (GIT_CEILING_DIRECTORIES = the roots' parents, see gitCeilings).
  // Every candidate on the way up is checked: git may skip one that looks odd and use the next.
  const ceilings = ctx.roots.map((r) => dirname(r)).filter((d) => d !== '/' || ctx.roots.includes('/'));
  const found = await discoverRepos(ctx, target.cwd, ceilings);
  for (const f of found) await checkGitDir(ctx, f.gitDir, target.workTree ?? f.workTree);
  const first = found[0];
  return { repository: first === undefined ? null : (first.workTree ?? first.gitDir), gitDirs: ctx.seen.size };
}

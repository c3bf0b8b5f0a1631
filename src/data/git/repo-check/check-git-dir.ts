// Checks one git directory as git would use it: where it really is, its commondir, its config
// (with includes) and config.worktree, its object alternates, and every submodule git could enter
// from it (absorbed git dirs under modules/, and populated gitlinks / .gitmodules paths).
import { join } from 'node:path';
import { insideRoots, parseAlternates, parseCommonDir, worktreeTarget } from '../../../policy/git-config/git-pointers.js';
import { existingTarget, realOrNull, resolvePointer } from './resolve-pointer.js';
import { judgeGitConfig, unsafeGit } from '../../../policy/git-config/judge-git-config.js';
import { coversSecrets } from '../../../policy/sensitive-paths.js';
import { checkConfigFile } from './check-config-file.js';
import { indexGitlinks } from './index-gitlinks.js';
import { CHECK_LIMITS, kindOf, readMetaText, realInside, subdirs, type CheckCtx } from './meta-reader.js';
import { gitDirOf, isGitDir } from './discover-repo.js';

/** Checks the git directory `gitDir` (and `workTree`, when git would use one); throws git.unsafe_config. */
export async function checkGitDir(ctx: CheckCtx, gitDir: string, workTree: string | null, depth = 0): Promise<void> {
  if (depth > CHECK_LIMITS.depth) unsafeGit(`git directory ${gitDir}`, `nests submodules deeper than ${CHECK_LIMITS.depth}`);
  const real = await realInside(ctx, gitDir, `git directory ${gitDir}`);
  if (real === null || ctx.seen.has(real)) return;
  ctx.seen.add(real);
  const commonText = await readMetaText(ctx, join(real, 'commondir'), 4096);
  const common = commonText === null ? real : await existingTarget(ctx, real, parseCommonDir(commonText, real), `commondir of ${real}`);
  // Independent reads run together; the first failure in this fixed order is the one reported.
  // config.worktree is read by git only with extensions.worktreeConfig; it is checked whenever it exists.
  const [facts, wtFacts] = await firstFailure([
    checkConfigFile(ctx, join(common, 'config')),
    checkConfigFile(ctx, join(real, 'config.worktree')),
    checkObjects(ctx, join(common, 'objects'), 0).then(() => null),
    checkModules(ctx, join(common, 'modules'), depth, 0).then(() => null),
  ] as const);
  const pointer = wtFacts.worktree ?? facts.worktree;
  // The work tree as the OS resolves it (never lexically); submodule paths are joined onto it.
  let wt = workTree === null ? null : await realOrNull(workTree, `work tree ${workTree}`);
  if (pointer) {
    const where = `setting core.worktree (${pointer.file}, line ${pointer.line})`;
    const target = await resolvePointer(real, worktreeTarget(pointer.path, real), where);
    if (!insideRoots(target, ctx.roots)) unsafeGit(where, `points at ${target}, outside the roots`);
    wt = await realInside(ctx, target, where);
    if (wt !== null && coversSecrets(wt, ctx.homeDir, ctx.stateDir)) unsafeGit(where, `points at ${wt}, which contains credentials or Workbench's state`);
  }
  if (wt !== null) await checkCheckedOutSubmodules(ctx, { gitDir: real, workTree: wt, sha256: facts.sha256, depth });
}

// Awaits every promise, then throws the first rejection in array order (not in time order).
async function firstFailure<T extends readonly unknown[]>(ps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(ps);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

// objects/info/alternates adds object stores git reads; each must stay inside the roots (git follows 5 levels).
async function checkObjects(ctx: CheckCtx, objects: string, level: number): Promise<void> {
  const real = await realInside(ctx, objects, `object directory ${objects}`);
  if (real === null) return;
  const http = await readMetaText(ctx, join(real, 'info', 'http-alternates'));
  if (http !== null && http.trim() !== '') unsafeGit(`file ${real}/info/http-alternates`, 'points at object stores on the network');
  const text = await readMetaText(ctx, join(real, 'info', 'alternates'));
  if (text === null) return;
  // git (2.39) resolves each line as the OS does and reports a missing one; a missing one is refused here.
  for (const line of parseAlternates(text, real)) {
    const alt = await existingTarget(ctx, real, line, `file ${real}/info/alternates (line ${JSON.stringify(line)})`);
    if (level < 5) await checkObjects(ctx, alt, level + 1);
  }
}

// Absorbed submodule git dirs: modules/<name>/ where <name> may contain slashes.
async function checkModules(ctx: CheckCtx, dir: string, depth: number, level: number): Promise<void> {
  if (level > CHECK_LIMITS.depth) unsafeGit(`directory ${dir}`, 'nests deeper than Workbench checks');
  for (const name of await subdirs(ctx, dir)) {
    const p = join(dir, name);
    if (await isGitDir(p)) await checkGitDir(ctx, p, null, depth + 1);
    else await checkModules(ctx, p, depth, level + 1);
  }
}

interface WorkTreeScan {
  gitDir: string;
  workTree: string;
  sha256: boolean;
  depth: number;
}

// Submodules git enters from this work tree: gitlinks in the index and .gitmodules paths with a .git.
async function checkCheckedOutSubmodules(ctx: CheckCtx, s: WorkTreeScan): Promise<void> {
  const paths = new Set(await indexGitlinks(ctx, s.gitDir, s.sha256));
  const gm = await readMetaText(ctx, join(s.workTree, '.gitmodules'));
  if (gm !== null) for (const p of judgeGitConfig(gm, join(s.workTree, '.gitmodules')).submodulePaths) paths.add(p);
  for (const p of paths) {
    // git itself refuses such index paths; never resolved lexically here.
    const parts = p.replace(/\/+$/, '').split('/');
    if (p.startsWith('/') || parts.some((c) => c === '' || c === '.' || c === '..')) unsafeGit(`submodule path ${JSON.stringify(p)} in ${s.workTree}`, 'is not a plain relative path inside the work tree');
    const dir = join(s.workTree, parts.join('/'));
    if ((await kindOf(join(dir, '.git'))) === null) continue;
    const sub = await gitDirOf(ctx, dir);
    if (sub !== null) await checkGitDir(ctx, sub, dir, s.depth + 1);
  }
}

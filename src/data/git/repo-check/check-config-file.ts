// Checks one git config file and, recursively, every file it includes (include.path and
// includeIf.*.path, whatever the condition): each must stay inside the roots and pass the allowlist.
import { includeTarget, insideRoots } from '../../../policy/git-config/git-pointers.js';
import { judgeGitConfig, unsafeGit, type ConfigPointer, type ConfigVerdict } from '../../../policy/git-config/judge-git-config.js';
import { CHECK_LIMITS, readMetaText, type CheckCtx } from './meta-reader.js';
import { resolvePointer } from './resolve-pointer.js';
import { dirname } from 'node:path';

/** What a config file (with its includes) tells the rest of the check. */
export interface ConfigFacts {
  worktree: (ConfigPointer & { file: string }) | null;
  worktreeConfig: boolean;
  submodulePaths: string[];
  sha256: boolean;
}

/** Checks `file` (absent is fine: git ignores it too) and its includes; throws git.unsafe_config. */
export async function checkConfigFile(ctx: CheckCtx, file: string, depth = 0): Promise<ConfigFacts> {
  const facts: ConfigFacts = { worktree: null, worktreeConfig: false, submodulePaths: [], sha256: false };
  const text = await readMetaText(ctx, file);
  if (text === null) return facts;
  const v: ConfigVerdict = judgeGitConfig(text, file);
  merge(facts, { worktree: v.worktree ? { ...v.worktree, file } : null, worktreeConfig: v.worktreeConfig, submodulePaths: v.submodulePaths, sha256: v.sha256 });
  for (const inc of v.includes) {
    const where = `setting ${inc.key} (${file}, line ${inc.line})`;
    if (depth >= CHECK_LIMITS.depth) unsafeGit(where, `nests includes deeper than ${CHECK_LIMITS.depth}`);
    // Resolved as the OS does; an absent target is fine (git skips it) only inside the roots and without `..`.
    const target = await resolvePointer(dirname(file), includeTarget(inc.path, file, inc.key), where);
    if (!insideRoots(target, ctx.roots)) unsafeGit(where, `includes ${target}, outside the roots`);
    merge(facts, await checkConfigFile(ctx, target, depth + 1));
  }
  return facts;
}

function merge(into: ConfigFacts, from: ConfigFacts): void {
  if (from.worktree) into.worktree = from.worktree;
  into.worktreeConfig ||= from.worktreeConfig;
  into.sha256 ||= from.sha256;
  into.submodulePaths.push(...from.submodulePaths);
}

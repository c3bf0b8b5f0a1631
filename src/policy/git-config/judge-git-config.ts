// Judges one git config file's text (pure): strict parse, then every key against the allowlist.
// The first unsafe key refuses the repository with `git.unsafe_config`, naming the key and the file.
// Pointer keys (includes, core.worktree) are returned for the caller to resolve and keep inside the roots.
import { PolicyDenial } from '../denial.js';
import { allowedPattern, VALUE_CHECKS } from './git-config-allowlist.js';
import { parseGitConfig, type GitConfigEntry } from './parse-git-config.js';

/** The rule id of every refusal of repository content that git would act on. */
export const GIT_UNSAFE_CONFIG = 'git.unsafe_config';

/** A path a config file points at, as written (the caller resolves it). */
export interface ConfigPointer {
  key: string;
  path: string;
  line: number;
}

export interface ConfigVerdict {
  /** include.path and includeIf.*.path values, in order; checked whatever their condition. */
  includes: ConfigPointer[];
  /** core.worktree, when set. */
  worktree: ConfigPointer | null;
  /** extensions.worktreeConfig = true. */
  worktreeConfig: boolean;
  /** submodule.<name>.path values (what .gitmodules maps). */
  submodulePaths: string[];
  /** extensions.objectFormat = sha256 (index entries then carry 32-byte ids). */
  sha256: boolean;
}

/** Refuses repository content with git.unsafe_config; `what` names the key or pointer and the file. */
export function unsafeGit(what: string, why: string): never {
  throw new PolicyDenial(
    GIT_UNSAFE_CONFIG,
    `the repository's ${what} ${why}; Workbench does not run git on a repository whose own configuration can run programs or reach outside the roots. Remove the setting (or inspect the repository by reading its files) and retry`,
  );
}

/** The key as git names it: section[.subsection].name (subsection case kept). */
export function keyName(e: Pick<GitConfigEntry, 'section' | 'subsection' | 'name'>): string {
  return e.subsection === null ? `${e.section}.${e.name}` : `${e.section}.${e.subsection}.${e.name}`;
}

/** Parses and judges config text read from `file`; throws git.unsafe_config on the first unsafe line. */
export function judgeGitConfig(text: string, file: string): ConfigVerdict {
  const parsed = parseGitConfig(text);
  if (!parsed.ok) unsafeGit(`config file ${file}`, `has ${parsed.reason} on line ${parsed.line}, which Workbench does not parse with confidence`);
  const verdict: ConfigVerdict = { includes: [], worktree: null, worktreeConfig: false, submodulePaths: [], sha256: false };
  for (const e of parsed.entries) judgeEntry(e, file, verdict);
  return verdict;
}

function judgeEntry(e: GitConfigEntry, file: string, v: ConfigVerdict): void {
  const key = keyName(e);
  const where = `setting ${key} (${file}, line ${e.line})`;
  const pattern = allowedPattern(e.section, e.subsection, e.name);
  if (pattern === null) unsafeGit(where, 'is not on the list of git settings known to run nothing and stay inside the repository');
  const why = VALUE_CHECKS[pattern]?.(e.value ?? '', e.subsection);
  if (why) unsafeGit(where, `is refused: ${why}`);
  if (pattern === 'include.path' || pattern === 'includeif.*.path') {
    if (e.value === null || e.value === '') unsafeGit(where, 'has no path');
    v.includes.push({ key, path: e.value, line: e.line });
  } else if (pattern === 'core.worktree') {
    if (e.value === null || e.value === '') unsafeGit(where, 'has no path');
    v.worktree = { key, path: e.value, line: e.line };
  } else if (pattern === 'extensions.worktreeconfig') {
    v.worktreeConfig = e.value === null || /^(true|yes|on|1)$/i.test(e.value);
  } else if (pattern === 'extensions.objectformat') {
    v.sha256 = (e.value ?? '').toLowerCase() === 'sha256';
  } else if (pattern === 'submodule.*.path' && e.value) {
    v.submodulePaths.push(e.value);
  }
}

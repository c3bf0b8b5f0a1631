// The one hardened way to run git on an untrusted repository: no hooks, pagers, helpers or ext diff.
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { whichSystem } from '../../sandbox/capabilities.js';
import { closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { minimalEnv } from '../../execution/helpers/helper-env.js';
import { runHelperBounded, type BoundedRunResult } from '../../execution/helpers/run-helper-bounded.js';
import { hasProcFd, openDirVerified } from '../open-checked.js';

// Constant defence in depth: settings that can run a program are pinned on the command line. The
// real guard is the repository check (repo-check/) that runs before git; no `-c` is ever built from
// text read out of a repository. System and global config are not read at all (gitEnv).
export const GIT_HARDENING = [
  '-c', 'core.fsmonitor=', '-c', 'core.pager=cat', '-c', 'core.sshCommand=/bin/false', '-c', 'diff.external=',
  '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.allow=never', '-c', 'credential.helper=',
  '-c', 'core.editor=/bin/false', '-c', 'sequence.editor=/bin/false', '-c', 'uploadpack.packObjectsHook=',
  '-c', 'core.untrackedCache=false', '-c', 'gc.auto=0', '-c', 'gpg.program=/bin/false', '-c', 'gpg.ssh.program=/bin/false',
  '-c', 'gpg.x509.program=/bin/false', '-c', 'log.showSignature=false', '--no-pager',
];

/** Environment for git: minimal, no inherited GIT_*, no system or global config, no prompts, no optional locks. */
export function gitEnv(ceilings: string[] = []): Record<string, string> {
  const ceiling: Record<string, string> = ceilings.length > 0 ? { GIT_CEILING_DIRECTORIES: ceilings.join(':') } : {};
  return minimalEnv({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_ASKPASS: '/bin/false', SSH_ASKPASS: '/bin/false', ...ceiling });
}

/**
 * Git must not find a repository above the roots (a home directory under git would expose files
 * outside the workspace): the parent of every root is a ceiling it does not climb into.
 */
export function gitCeilings(roots: string[]): string[] {
  return [...new Set(roots.map((r) => dirname(r)).filter((d) => d !== '/' || roots.includes('/')))];
}

export interface GitRunOptions {
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Runs hardened `git <args>` in cwd; throws unavailable without git, timeout when the budget ran out. */
export async function runGit(deps: AppDeps, cwd: string, args: string[], opts: GitRunOptions): Promise<BoundedRunResult> {
  const git = deps.capabilities().git ?? whichSystem('git');
  if (!git) throw new AppError('unavailable', 'git is not installed on this host', { hint: 'install git' });
  const env = gitEnv(gitCeilings(deps.runtime.readRoots));
  // Run in the directory that was checked, pinned by a verified descriptor (no swap-in symlink).
  const fd = openDirVerified(cwd);
  if (fd === null && hasProcFd()) throw new AppError('path_denied', `${cwd} changed while it was being checked`, { rule: 'path.changed' });
  try {
    const r = await runHelperBounded(deps, { program: git, args: [...GIT_HARDENING, ...args], cwd, cwdFd: fd ?? undefined, env, unconfined: 'run', ...opts });
    if (r.timedOut) throw new AppError('timeout', `git ${args[0]} took longer than ${opts.timeoutMs} ms`);
    return r;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Like runGit but a non-zero exit becomes an AppError naming git's message (not a repo → not_found). */
export async function runGitChecked(deps: AppDeps, cwd: string, args: string[], opts: GitRunOptions): Promise<BoundedRunResult> {
  const r = await runGit(deps, cwd, args, opts);
  if (r.code === 0 || r.truncated) return r;
  const msg = r.stderr.trim().split('\n')[0] || `git exited with code ${r.code}`;
  if (/not a git repository/i.test(msg)) throw new AppError('not_found', `${cwd} is not inside a git repository`);
  if (/unknown revision|bad revision|ambiguous argument/i.test(msg)) throw new AppError('invalid_params', `git: ${msg}`);
  throw new AppError('exec_failed', `git: ${msg}`);
}

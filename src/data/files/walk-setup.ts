// Shared set-up for walking adapters: resolve a directory argument and derive walk options from config.
import { stat } from 'node:fs/promises';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { resolveReadPath } from '../resolve-path.js';
import { loadGitignore } from './gitignore.js';
import type { WalkOptions } from './walk-tree.js';

/** Resolves and checks a directory argument; a file gets a clear invalid_params. */
export async function resolveDir(deps: AppDeps, p: string, tool: string): Promise<string> {
  const real = resolveReadPath(deps, p);
  const s = await stat(real);
  if (!s.isDirectory()) throw new AppError('invalid_params', `${tool} needs a directory but ${real} is a file`, { hint: 'use read_file for a file' });
  return real;
}

export interface WalkKnobs {
  maxDepth: number;
  include_hidden: boolean;
  include_skipped: boolean;
  follow_symlinks?: boolean;
  stat: boolean;
  budgetMs: number;
}

/** Builds walk options: skip_dirs and the root .gitignore apply unless include_skipped. */
export async function walkOptionsFor(deps: AppDeps, root: string, k: WalkKnobs): Promise<WalkOptions & { notes: string[] }> {
  const ignore = k.include_skipped ? { test: null } : await loadGitignore(deps, root);
  return {
    notes: ignore.note ? [ignore.note] : [],
    deps,
    root,
    maxDepth: k.maxDepth,
    skipDirs: k.include_skipped ? null : new Set(deps.config.adapters.skip_dirs),
    includeHidden: k.include_hidden,
    ignore: ignore.test,
    followSymlinks: k.follow_symlinks ?? false,
    reverse: false,
    stat: k.stat,
    deadline: Date.now() + k.budgetMs,
  };
}

// Resolves a git adapter's path argument to a checked directory to run git in, after the
// repository there passed the config check (no repository content can make git run a program).
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AppDeps } from '../../control/deps.js';
import { resolveReadPath } from '../resolve-path.js';
import { checkRepository } from './repo-check/check-repository.js';

/** The checked real directory for `path` (a file's parent directory when a file is named). */
export async function gitCwd(deps: AppDeps, path: string): Promise<string> {
  const real = resolveReadPath(deps, path);
  const s = await stat(real);
  const cwd = s.isDirectory() ? real : dirname(real);
  await checkRepository({ cwd }, { roots: deps.runtime.readRoots, homeDir: deps.runtime.homeDir, stateDir: deps.runtime.stateDir });
  return cwd;
}

// The one place adapters turn a caller's path into a checked real path. What is visible is decided
// by the commands' own path policy (src/policy/paths.ts), with the adapter as the viewer: one rule,
// in one place. The only differences are what names denote in the server process: its /proc/self
// is the server (refused, path.server_process) and its /tmp is the host's (only roots count there).
import { realpathSync } from 'node:fs';
import type { AppDeps } from '../control/deps.js';
import { checkPath, isVisibleEntry } from '../policy/paths.js';
import { AppError } from '../shared/errors.js';

/** Working directory for relative paths: the first workspace root. */
export function baseDir(deps: AppDeps): string {
  return deps.runtime.workspaceRoots[0] ?? deps.runtime.readRoots[0] ?? '/';
}

/** Resolves `p` (absolute, or relative to the first workspace root) and throws path_denied/not_found. */
export function resolveReadPath(deps: AppDeps, p: string): string {
  if (p.includes('\0') || p.includes('\n')) throw new AppError('invalid_params', 'path contains a NUL byte or a newline');
  const ctx = deps.policyContext();
  const r = checkPath(p, baseDir(deps), ctx, { write: false, viewer: 'adapter' });
  if ('allow' in r) throw new AppError(r.errorClass, r.message, { rule: r.rule, hint: 'name a path inside the workspace or read roots' });
  if (ctx.fs.realpath(r.real) === null) throw new AppError('not_found', `${p} does not exist`);
  return r.real;
}

/** True when an entry met during a walk (below an already checked real directory) may be read. */
export function mayReadReal(deps: AppDeps, real: string): boolean {
  return isVisibleEntry(real, deps.policyContext(), 'adapter');
}

/** realpath of a symlink target met during a walk, or null when it is broken or leaves the readable area. */
export function followableTarget(deps: AppDeps, abs: string): string | null {
  try {
    const real = realpathSync(abs);
    const r = checkPath(real, '/', deps.policyContext(), { write: false, viewer: 'adapter' });
    return 'real' in r ? real : null;
  } catch {
    return null;
  }
}

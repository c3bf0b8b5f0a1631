// The one place adapters turn a caller's path into a checked real path (adapt here when policy changes).
import { realpathSync } from 'node:fs';
import type { AppDeps } from '../control/deps.js';
import { checkPath } from '../policy/paths.js';
import { isInside, isSensitivePath } from '../policy/sensitive-paths.js';
import type { PolicyContext } from '../policy/types.js';
import { AppError } from '../shared/errors.js';

/** Working directory for relative paths: the first workspace root. */
export function baseDir(deps: AppDeps): string {
  return deps.runtime.workspaceRoots[0] ?? deps.runtime.readRoots[0] ?? '/';
}

// Policy lets commands read /tmp because the sandbox gives them a private one; adapters run in the
// server process and would see the host's real /tmp (other users' files), so only roots count there.
function hostTmpDenied(real: string, ctx: PolicyContext): boolean {
  if (!isInside(real, '/tmp') && !isInside(real, '/var/tmp')) return false;
  return ![...ctx.readRoots, ...ctx.writeRoots].some((r) => isInside(real, r));
}

/** Resolves `p` (absolute, or relative to the first workspace root) and throws path_denied/not_found. */
export function resolveReadPath(deps: AppDeps, p: string): string {
  if (p.includes('\0') || p.includes('\n')) throw new AppError('invalid_params', 'path contains a NUL byte or a newline');
  const ctx = deps.policyContext();
  const r = checkPath(p, baseDir(deps), ctx, { write: false });
  if ('allow' in r) throw new AppError(r.errorClass, r.message, { rule: r.rule, hint: 'name a path inside the workspace or read roots' });
  if (hostTmpDenied(r.real, ctx)) {
    throw new AppError('path_denied', `${p} is in the host's temporary directory outside the read roots`, { rule: 'path.outside_roots', hint: 'add it with --root or policy.read_roots' });
  }
  if (ctx.fs.realpath(r.real) === null) throw new AppError('not_found', `${p} does not exist`);
  return r.real;
}

/** True when an entry met during a walk (below an already checked real directory) may be read. */
export function mayReadReal(deps: AppDeps, real: string): boolean {
  const ctx = deps.policyContext();
  return !isSensitivePath(real, ctx.homeDir) && !isInside(real, ctx.stateDir);
}

/** realpath of a symlink target met during a walk, or null when it is broken or leaves the readable area. */
export function followableTarget(deps: AppDeps, abs: string): string | null {
  try {
    const real = realpathSync(abs);
    const ctx = deps.policyContext();
    const r = checkPath(real, '/', ctx, { write: false });
    return 'real' in r && !hostTmpDenied(real, ctx) ? real : null;
  } catch {
    return null;
  }
}

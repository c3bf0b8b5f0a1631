// Validation of caller-supplied git refs: they must never be read as options.
import { AppError } from '../../shared/errors.js';

const SAFE_REF = /^[A-Za-z0-9_][A-Za-z0-9_./@{}~^:-]{0,199}$/;

/** Throws invalid_params unless `ref` looks like a revision (no leading dash, no spaces). */
export function checkRef(ref: string): string {
  if (!SAFE_REF.test(ref)) {
    throw new AppError('invalid_params', `ref "${ref}" is not a valid revision name`, { hint: 'use a branch, tag, commit hash or an expression like HEAD~3 or main..feature' });
  }
  return ref;
}

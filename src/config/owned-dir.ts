// Directories that are Workbench's own (the state directory, the private sandbox directory): created
// 0700; when they exist, owned by the user, not writable by group or others, with no symbolic link
// anywhere on the path. Another local user who could plant or swap something there would decide
// what the server runs, or read its token.
import { lstatSync, mkdirSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { untrustedReason } from './trusted-path.js';

/** Creates `dir` (mode 0700) or verifies it; throws ConfigError naming the component and the reason. */
export function ensureOwnedDir(dir: string, what: string, fix: string): string {
  const refuse = (why: string) => new ConfigError(`${what} ${dir} is refused: ${why}. ${fix}`);
  const before = untrustedReason(dir, { noSymlinks: true, ownedBySelf: true });
  if (before) throw refuse(before);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw refuse(`it cannot be created: ${(err as Error).message}`);
  }
  // Checked again once it exists: the walk above stops at the first missing component.
  const after = untrustedReason(dir, { noSymlinks: true, ownedBySelf: true });
  if (after) throw refuse(after);
  if (!lstatSync(dir).isDirectory()) throw refuse('it is not a directory');
  return dir;
}

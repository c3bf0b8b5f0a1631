// Small files the sandbox wrapper reads on the host side (the seccomp program, the empty
// unreadable file that masks secrets). They live in `<state dir>/sandbox`: created 0700 and
// verified (ours, no group/other write, no symbolic link on the path) on every use, inside the
// state directory that every sandbox masks, so neither another local user nor a confined command
// can plant or swap them (a swapped seccomp program would silently weaken every sandbox).
import { chmodSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnedDir } from '../config/owned-dir.js';
import { privateSandboxDir } from '../config/state-paths.js';
import { AppError } from '../shared/errors.js';

const FIX = 'Workbench keeps its seccomp program there: remove it (Workbench recreates it), or set WORKBENCH_HOME to a new path only you can write';

/** The verified private directory; AppError `unavailable` saying which component is wrong and why. */
export function privateDir(stateDir: string): string {
  try {
    return ensureOwnedDir(privateSandboxDir(stateDir), 'private sandbox directory', FIX);
  } catch (err) {
    throw new AppError('unavailable', (err as Error).message);
  }
}

/**
 * Makes sure `<privateDir>/<name>` holds exactly `bytes` with `mode`, and returns its path.
 * Re-creates it when it was removed or changed; writes go through an exclusive temp file and a
 * rename, so a reader never sees a half-written file and a planted link is replaced, not followed.
 */
export function ensurePrivateFile(stateDir: string, name: string, bytes: Buffer, mode: number): string {
  const dir = privateDir(stateDir);
  const path = join(dir, name);
  if (holds(path, bytes, mode)) return path;
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    rmSync(tmp, { force: true });
    writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, mode);
    renameSync(tmp, path);
    return path;
  } catch (err) {
    throw new AppError('unavailable', `cannot write the sandbox file ${path}: ${(err as Error).message}`);
  }
}

function holds(path: string, bytes: Buffer, mode: number): boolean {
  try {
    const st = lstatSync(path);
    if (!st.isFile() || (st.mode & 0o7777) !== mode || st.size !== bytes.length || st.uid !== (process.geteuid?.() ?? 0)) return false;
    // A mode-000 file cannot be read back (unless we are root); its size and mode are what matter.
    return bytes.length === 0 || readFileSync(path).equals(bytes);
  } catch {
    return false;
  }
}

// Open first, then verify what was opened. Adapters run unsandboxed in the server process, so a path
// checked by policy and then opened again by name can be swapped (a directory replaced by a symlink
// to the state dir) between the check and the open. Every adapter read goes through a descriptor
// opened here: O_NOFOLLOW (last component), O_NONBLOCK (a FIFO never blocks a libuv thread), then
// the descriptor's own real path (/proc/self/fd on Linux) must pass the same policy check. O_NOFOLLOW
// alone is not enough (intermediate symlinks are still followed); the descriptor re-check is the guard.
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Dirent, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { AppDeps } from '../control/deps.js';
import { AppError } from '../shared/errors.js';
import { resolveReadPath } from './resolve-path.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Flags for every adapter open of a file: read-only, no final symlink, never blocks on a FIFO. */
export const FILE_OPEN_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** Same for a directory (O_DIRECTORY refuses anything else). */
export const DIR_OPEN_FLAGS = FILE_OPEN_FLAGS | O_DIRECTORY;

let procFd: boolean | undefined;
/** True when /proc/self/fd names a descriptor's real path (Linux with /proc mounted). */
export function hasProcFd(): boolean {
  return (procFd ??= process.platform === 'linux' && existsSync('/proc/self/fd'));
}

/** The real path of an open descriptor, or null when the platform cannot tell (or the read failed). */
export function fdRealPath(fd: number): string | null {
  if (!hasProcFd()) return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * True when descriptor `fd` (whose fstat is `st`) is the object at the real path `expected`.
 * Linux: /proc/self/fd/N must read exactly `expected`. Elsewhere: dev+ino of an lstat of
 * `expected` (a real path, so no final symlink) must match; weaker, since intermediate
 * components of `expected` are resolved again by that lstat.
 */
export function fdIs(fd: number, st: Stats, expected: string): boolean {
  if (hasProcFd()) return fdRealPath(fd) === expected;
  try {
    const s = lstatSync(expected);
    return s.dev === st.dev && s.ino === st.ino;
  } catch {
    return false;
  }
}

export interface CheckedFile {
  fh: FileHandle;
  fd: number;
  /** The verified real path of what was opened. */
  real: string;
  stat: Stats;
}

export interface OpenCheckedOptions {
  kind: 'file';
  /** Tool name for error messages. */
  tool?: string;
}

/** Resolves and checks `p` by policy, then opens and verifies it (see openVerified). */
export async function openCheckedFile(deps: AppDeps, p: string, opts: OpenCheckedOptions): Promise<CheckedFile> {
  return openVerified(deps, resolveReadPath(deps, p), opts);
}

/**
 * Second step of openCheckedFile: opens `real` (a path resolveReadPath returned) without following
 * a final symlink and without blocking, refuses anything but a regular file, and re-checks the
 * descriptor's real path by the same policy. Exported separately so tests can change the tree
 * between the check and the open. The caller closes `fh`.
 */
export async function openVerified(deps: AppDeps, real: string, opts: OpenCheckedOptions): Promise<CheckedFile> {
  let fh: FileHandle;
  try {
    fh = await open(real, FILE_OPEN_FLAGS);
  } catch (err) {
    throw openError(err, real);
  }
  try {
    const stat = await fh.stat();
    const actual = verifiedPath(deps, fh.fd, stat, real);
    if (stat.isDirectory()) throw new AppError('invalid_params', `${actual} is a directory`, { hint: 'use list_files for a directory' });
    if (!stat.isFile()) {
      throw new AppError('invalid_params', `${actual} is not a regular file (FIFO, socket or device)${opts.tool ? `; ${opts.tool} reads regular files only` : ''}`, { hint: 'use run_command to read special files' });
    }
    return { fh, fd: fh.fd, real: actual, stat };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

// The descriptor's real path after the same policy check resolveReadPath runs; throws path_denied.
function verifiedPath(deps: AppDeps, fd: number, st: Stats, checked: string): string {
  const actual = fdRealPath(fd);
  if (actual === null) {
    if (hasProcFd() || !fdIs(fd, st, checked)) throw changed(checked);
    return checked;
  }
  if (actual === checked) return checked;
  // Not what was checked: the tree changed (or the kernel spells the path differently). Run the same
  // policy check on what was actually opened and accept only a path that is its own real path.
  let again: string;
  try {
    again = resolveReadPath(deps, actual);
  } catch (err) {
    if (err instanceof AppError && err.errorClass === 'path_denied') throw err;
    throw changed(checked);
  }
  if (again !== actual) throw changed(checked);
  return actual;
}

function changed(p: string): AppError {
  return new AppError('path_denied', `${p} changed while it was being opened (a symlink was swapped in); refusing to read it`, { rule: 'path.changed', hint: 'retry once the path is stable' });
}

function openError(err: unknown, real: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'EMLINK') return changed(real);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AppError('not_found', `${real} does not exist`);
  if (code === 'ENXIO') return new AppError('invalid_params', `${real} is not a regular file (socket or device)`);
  return err;
}

/**
 * Opens directory `expected` (a real path below a checked root) and verifies the descriptor is that
 * directory; null when it vanished, is not a directory, or was swapped. The caller closes the fd.
 */
export function openDirVerified(expected: string): number | null {
  return openVerifiedSync(expected, DIR_OPEN_FLAGS, (st) => st.isDirectory());
}

/** A path naming the directory open on `fd` itself (Linux) so later lookups cannot be redirected. */
export function dirFdPath(fd: number, expected: string): string {
  return hasProcFd() ? `/proc/self/fd/${fd}` : expected;
}

export interface DirListing {
  dirents: Dirent[];
  /** lstat of each entry (by name) taken through the verified directory, when asked for. */
  stats?: Map<string, Stats>;
}

/**
 * Lists directory `expected` through a verified descriptor: names (and optional lstat) come from
 * the directory that was checked, even if the path is swapped meanwhile. Empty when unverifiable.
 */
export function readDirVerified(expected: string, withStats: boolean): DirListing {
  const fd = openDirVerified(expected);
  if (fd === null) return { dirents: [] };
  try {
    const base = dirFdPath(fd, expected);
    const dirents = readdirSync(base, { withFileTypes: true });
    if (!withStats) return { dirents };
    const stats = new Map<string, Stats>();
    for (const d of dirents) {
      try {
        stats.set(d.name, lstatSync(`${base}/${d.name}`));
      } catch {
        // vanished
      }
    }
    return { dirents, stats };
  } catch {
    return { dirents: [] };
  } finally {
    closeSync(fd);
  }
}

/** Opens regular file `expected` (a real path the walk produced) and verifies it; null otherwise. Sync. */
export function openFileVerifiedSync(expected: string): number | null {
  return openVerifiedSync(expected, FILE_OPEN_FLAGS, (st) => st.isFile());
}

/** Opens `expected` with `flags` and keeps the fd only if it is of the wanted kind and really that path. */
function openVerifiedSync(expected: string, flags: number, kind: (st: Stats) => boolean): number | null {
  let fd: number;
  try {
    fd = openSync(expected, flags);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (kind(st) && fdIs(fd, st, expected)) return fd;
  } catch {
    // fall through
  }
  closeSync(fd);
  return null;
}

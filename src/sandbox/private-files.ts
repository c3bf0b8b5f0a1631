// Small files the sandbox wrapper reads on the host side (the seccomp program, the empty
// unreadable file that masks secrets). They live in a per-user directory under the temp dir
// that must be ours and mode 0700: another local user must not be able to plant or swap a
// file there (a swapped seccomp program would silently weaken every sandbox).
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SAFE_PATH = /^[\w./-]+$/;

/** The private directory, created if missing; undefined when it exists but is not safely ours. */
export function privateDir(): string | undefined {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `workbench-sandbox-${uid}`);
  if (!SAFE_PATH.test(dir)) return undefined;
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure `<privateDir>/<name>` holds exactly `bytes` with `mode`, and returns its path.
 * Re-creates it when a temp cleaner removed it; writes go through a rename so a reader never
 * sees a half-written file.
 */
export function ensurePrivateFile(name: string, bytes: Buffer, mode: number): string | undefined {
  const dir = privateDir();
  if (!dir) return undefined;
  const path = join(dir, name);
  try {
    const st = lstatSync(path);
    if (st.isFile() && (st.mode & 0o777) === mode && (mode & 0o400 ? readFileSync(path).equals(bytes) : st.size === bytes.length)) return path;
  } catch {
    /* missing: write it below */
  }
  try {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    chmodSync(tmp, mode);
    renameSync(tmp, path);
    return path;
  } catch {
    return undefined;
  }
}

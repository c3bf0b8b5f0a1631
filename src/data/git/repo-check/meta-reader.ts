// Bounded, async reads of a repository's metadata for the config check: every file and directory is
// realpath'd and must stay inside the roots; reads never block on a FIFO and stop at fixed budgets.
import { constants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { insideRoots } from '../../../policy/git-config/git-pointers.js';
import { isInside, isSensitivePath } from '../../../policy/sensitive-paths.js';
import { unsafeGit } from '../../../policy/git-config/judge-git-config.js';
import { PolicyDenial } from '../../../policy/denial.js';

/** Budgets of one check: entries looked at, bytes read, nesting (submodules, includes). */
export const CHECK_LIMITS = { entries: 20000, bytes: 64 << 20, depth: 10, configBytes: 1 << 20, indexBytes: 32 << 20 };

/** The state of one repository check (created per call; nothing shared between calls). */
export interface CheckCtx {
  roots: string[];
  homeDir: string;
  stateDir: string;
  entries: number;
  bytes: number;
  seen: Set<string>;
}

/** Where a check may look: the read roots, minus secrets and the state directory. */
export interface CheckScope {
  roots: readonly string[];
  homeDir: string;
  stateDir: string;
}

/** A fresh context over the real paths of the roots. */
export async function newCheckCtx(scope: CheckScope): Promise<CheckCtx> {
  const real = await Promise.all(scope.roots.map((r) => realpath(r).catch(() => r)));
  return { roots: real, homeDir: scope.homeDir, stateDir: scope.stateDir, entries: 0, bytes: 0, seen: new Set() };
}

function count(ctx: CheckCtx, bytes = 0): void {
  ctx.entries++;
  ctx.bytes += bytes;
  if (ctx.entries > CHECK_LIMITS.entries || ctx.bytes > CHECK_LIMITS.bytes) {
    unsafeGit('metadata', `is too large to check (over ${CHECK_LIMITS.entries} entries or ${CHECK_LIMITS.bytes >> 20} MB of config, index and submodule data)`);
  }
}

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// Anything but "absent" (EACCES, ELOOP, EIO…) means the check cannot vouch for the repository.
export function unreadable(err: unknown, what: string): never {
  if (err instanceof PolicyDenial) throw err;
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  unsafeGit(what, `could not be read to check it (${code})`);
}

/** The real path of `p` (null when absent); refused when it resolves outside the roots. */
export async function realInside(ctx: CheckCtx, p: string, what: string): Promise<string | null> {
  count(ctx);
  let real: string;
  try {
    real = await realpath(p);
  } catch (err) {
    if (missing(err)) return null;
    unreadable(err, what);
  }
  if (!insideRoots(real, ctx.roots)) unsafeGit(what, `resolves to ${real}, outside the roots`);
  if (isSensitivePath(real, ctx.homeDir) || isInside(real, ctx.stateDir)) unsafeGit(what, `resolves to ${real}, a sensitive path (credentials or Workbench's state)`);
  return real;
}

/** 'file' | 'dir' | null (absent or something else), following symlinks like git does. */
export async function kindOf(p: string): Promise<'file' | 'dir' | null> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null;
  } catch (err) {
    if (missing(err)) return null;
    unreadable(err, p);
  }
}

/** Reads a metadata file (null when absent): inside the roots, a regular file, at most `limit` bytes. */
export async function readMeta(ctx: CheckCtx, p: string, limit: number = CHECK_LIMITS.configBytes): Promise<Buffer | null> {
  const real = await realInside(ctx, p, `file ${p}`);
  if (real === null) return null;
  const fh = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch((err: unknown) => unreadable(err, `file ${p}`));
  try {
    const s = await fh.stat();
    if (!s.isFile()) unsafeGit(`file ${p}`, 'is not a regular file');
    if (s.size > limit) unsafeGit(`file ${p}`, `is ${s.size} bytes, over the ${limit} bytes Workbench checks`);
    count(ctx, s.size);
    const buf = Buffer.alloc(s.size);
    const { bytesRead } = await fh.read(buf, 0, s.size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Bytes as UTF-8, or a refusal: git works on the bytes, so text or a name that is not valid UTF-8
 * cannot be checked by its (lossy) decoding. A BOM is kept for the caller to judge.
 */
export function strictUtf8(b: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
  } catch {
    unsafeGit(what, 'is not valid UTF-8, so Workbench cannot read it exactly as git does');
  }
}

/** readMeta as UTF-8 text; a file that is not valid UTF-8 is refused. */
export async function readMetaText(ctx: CheckCtx, p: string, limit?: number): Promise<string | null> {
  const b = await readMeta(ctx, p, limit);
  return b === null ? null : strictUtf8(b, `file ${p}`);
}

/** Subdirectory names of `dir` (empty when absent), counted against the budget; non-UTF-8 names are refused. */
export async function subdirs(ctx: CheckCtx, dir: string): Promise<string[]> {
  try {
    const ents = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
    for (let i = 0; i < ents.length; i++) count(ctx);
    return ents.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => strictUtf8(e.name, `a name in directory ${dir}`));
  } catch (err) {
    if (missing(err)) return [];
    unreadable(err, `directory ${dir}`);
  }
}

/** Names in `dir` (empty when absent), counted against the budget; non-UTF-8 names are refused. */
export async function entryNames(ctx: CheckCtx, dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir, { encoding: 'buffer' });
    for (let i = 0; i < names.length; i++) count(ctx);
    return names.map((n) => strictUtf8(n, `a name in directory ${dir}`));
  } catch (err) {
    if (missing(err)) return [];
    unreadable(err, `directory ${dir}`);
  }
}

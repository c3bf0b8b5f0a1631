// Path policy: resolves a path like the kernel would (realpath via ctx.fs) and says whether a
// command may read or write it. Pure: the only disk facts come from ctx.fs.
import { posix } from 'node:path';
import { PolicyDenial, type Deny } from './denial.js';
import { reachesServerProcess, type Viewer } from './proc-paths.js';
import { coversSecrets, isInside, isSensitivePath } from './sensitive-paths.js';
import type { PolicyContext } from './types.js';

/** Directories every command may read because programs need them (the sandbox shows them too). */
export const SYSTEM_READ_DIRS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/proc', '/sys', '/tmp'];
const DEV_READ = new Set(['/dev/null', '/dev/zero', '/dev/urandom', '/dev/random', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/fd/0', '/dev/fd/1', '/dev/fd/2']);
const DEV_WRITE = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);

export interface PathOptions {
  /** The command writes this path: it must be inside ctx.writeRoots (or the private /tmp). */
  write?: boolean;
  /** Only refuse secrets and the state directory (profiles whose OS sandbox confines the rest). */
  lenient?: boolean;
  /** The command reads the directory recursively: refuse a directory that contains secrets. */
  recursive?: boolean;
  /**
   * Who opens the path (default a command). The rule is the same for both; only what a name
   * denotes differs: an adapter's /proc/self is the server and its /tmp the host's (see allowed()).
   */
  viewer?: Viewer;
}

export type PathResult = { ok: true; real: string } | (Deny & { ok: false });

/** Checks one path argument against the roots, the sensitive list and the state dir. */
export function checkPath(p: string, cwd: string, ctx: PolicyContext, opts: PathOptions = {}): PathResult {
  try {
    return { ok: true, real: assertPath(p, cwd, ctx, opts) };
  } catch (err) {
    if (err instanceof PolicyDenial) return { ok: false, ...err.toDecision() };
    throw err;
  }
}

/** checkPath that throws a PolicyDenial instead of returning it; returns the resolved path. */
export function assertPath(p: string, cwd: string, ctx: PolicyContext, opts: PathOptions = {}): string {
  const abs = posix.resolve(cwd, p);
  const viewer = opts.viewer ?? 'command';
  // /dev/stdin and friends resolve through /proc/self/fd to the command's own pipes.
  if (viewer === 'command' && (opts.write ? DEV_WRITE.has(abs) : DEV_READ.has(abs))) return abs;
  const real = realOf(abs, ctx);
  if (isSensitivePath(abs, ctx.homeDir) || isSensitivePath(real, ctx.homeDir)) {
    deny('path.sensitive', `${p} is a sensitive file (credentials, keys or another process's memory); it is never readable`);
  }
  if (isInside(abs, ctx.stateDir) || isInside(real, ctx.stateDir)) {
    deny('path.state_dir', `${p} is inside Workbench's own state directory, which commands may not touch`);
  }
  if (reachesServerProcess(abs, real, viewer, (pid) => isServerPid(pid, ctx))) {
    const why = viewer === 'adapter' ? `; for ${p} that is the server itself (use run_command, whose /proc/self is its own sandboxed process)` : '';
    deny('path.server_process', `${p} is Workbench's own server process (its environment, descriptors and command line), which no request may read${why}`);
  }
  if (opts.lenient) return real;
  const write = opts.write === true;
  if (allowed(real, ctx, write, viewer)) {
    if (opts.recursive && coversSecrets(real, ctx.homeDir, ctx.stateDir)) {
      deny('path.sensitive', `a recursive read of ${p} would reach sensitive files; name a narrower directory`);
    }
    return real;
  }
  const where = write ? `the write roots (${ctx.writeRoots.join(', ') || 'none in this profile'})` : 'the read roots';
  if (allowed(abs, ctx, write, viewer)) deny('path.symlink_escape', `${p} resolves through a symlink to ${real}, outside ${where}`);
  if (hasDotDot(p)) deny('path.traversal', `${p} uses .. to leave ${where}; name a path inside them`);
  if (ctx.homeDir !== '/' && isInside(real, ctx.homeDir)) {
    deny('path.home', `${p} is in the home directory outside the workspace roots; add it with --root or policy.read_roots`);
  }
  deny('path.outside_roots', `${p} is outside ${where}${write ? '' : ' and the system directories'}; add it with --root or policy.read_roots`);
}

function deny(rule: string, message: string): never {
  throw new PolicyDenial(rule, message, 'path_denied');
}

// The same directories for every viewer, except /tmp: a command gets a private one (so reading it
// reveals nothing), an adapter would read the host's shared /tmp, so there only the roots count.
function allowed(p: string, ctx: PolicyContext, write: boolean, viewer: Viewer): boolean {
  const privateTmp = ctx.privateTmp !== false && viewer === 'command';
  if (write) {
    for (const r of ctx.writeRoots) if (isInside(p, r)) return true;
    if (DEV_WRITE.has(p)) return true;
    // The private /tmp is writable, but not a read-only root that happens to live under /tmp.
    return privateTmp && isInside(p, '/tmp') && !ctx.readRoots.some((r) => isInside(p, r));
  }
  for (const r of ctx.readRoots) if (isInside(p, r)) return true;
  for (const r of ctx.writeRoots) if (isInside(p, r)) return true;
  for (const r of SYSTEM_READ_DIRS) if (isInside(p, r) && (r !== '/tmp' || privateTmp)) return true;
  return DEV_READ.has(p);
}

/** realpath of abs; for a path that does not exist yet, the realpath of its longest existing parent plus the rest. */
export function realOf(abs: string, ctx: PolicyContext): string {
  const direct = ctx.fs.realpath(abs);
  if (direct !== null) return direct;
  let dir = abs;
  let rest = '';
  while (dir !== '/') {
    const cut = dir.lastIndexOf('/');
    rest = rest === '' ? dir.slice(cut + 1) : `${dir.slice(cut + 1)}/${rest}`;
    dir = cut <= 0 ? '/' : dir.slice(0, cut);
    const r = ctx.fs.realpath(dir);
    if (r !== null) return r === '/' ? `/${rest}` : `${r}/${rest}`;
  }
  return abs;
}

/**
 * True when an entry met while walking below an already checked real directory stays visible to
 * `viewer`: the per-entry part of assertPath (secrets, the state directory, the server's process).
 */
export function isVisibleEntry(real: string, ctx: PolicyContext, viewer: Viewer): boolean {
  if (isSensitivePath(real, ctx.homeDir) || isInside(real, ctx.stateDir)) return false;
  if (!real.startsWith('/proc/') && !real.startsWith('/dev/')) return true;
  // Entries come from readdir, which never lists a thread's pid: the server's pid is enough here.
  return !reachesServerProcess(real, real, viewer, (pid) => pid === ctx.serverPid);
}

/** The server's pid, or one of its threads' ids (each has an openable /proc/<tid>). */
function isServerPid(pid: number, ctx: PolicyContext): boolean {
  if (ctx.serverPid === undefined) return false;
  return pid === ctx.serverPid || ctx.fs.threadGroupOf?.(pid) === ctx.serverPid;
}

function hasDotDot(p: string): boolean {
  return p === '..' || p.startsWith('../') || p.endsWith('/..') || p.includes('/../');
}

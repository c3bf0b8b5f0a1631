// What a confined command sees of the host filesystem, as bubblewrap mount arguments.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { HOME_SECRETS, SYS_HIDDEN, SYSTEM_SECRETS } from '../policy/sensitive-paths.js';
import { AppError } from '../shared/errors.js';
import { createPlaceholder } from './secret-placeholders.js';

/** Secret files of the system and of home, and the hidden parts of /sys: one list each, shared with the policy layer (src/policy/sensitive-paths.ts). */
const ETC_SECRETS = SYSTEM_SECRETS.filter((p) => p.startsWith('/etc/'));

/** One mount: its destination (for ordering) and the bwrap arguments that make it. */
export interface Mount {
  path: string;
  args: string[];
}

/**
 * Read-only view of what programs need: /usr, the /bin and /lib* links or dirs, /etc, /opt, /sys.
 * `sys: false` leaves /sys out (helper programs need none of it, and its recursive bind is one of
 * the dearer parts of a sandbox's start).
 */
export function systemMounts({ sys = true } = {}): Mount[] {
  const m: Mount[] = [{ path: '/usr', args: ['--ro-bind', '/usr', '/usr'] }];
  for (const p of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    const kind = kindOf(p);
    // On merged-usr hosts these are symlinks into /usr: recreate the link, don't bind its target twice.
    if (kind === 'link') m.push({ path: p, args: ['--symlink', readlinkSync(p), p] });
    else if (kind === 'dir') m.push({ path: p, args: ['--ro-bind', p, p] });
  }
  m.push({ path: '/etc', args: ['--ro-bind', '/etc', '/etc'] });
  for (const p of sys ? ['/opt', '/sys'] : ['/opt']) m.push({ path: p, args: ['--ro-bind-try', p, p] });
  // A fresh procfs for the new pid namespace (only our own processes) and a minimal /dev.
  m.push({ path: '/proc', args: ['--proc', '/proc'] }, { path: '/dev', args: ['--dev', '/dev'] });
  return m;
}

/** When network is on, a resolv.conf that links outside /etc (systemd-resolved) needs its target. */
export function resolverMounts(): string[] {
  if (kindOf('/etc/resolv.conf') !== 'link') return [];
  try {
    const target = realpathSync('/etc/resolv.conf');
    return target.startsWith('/etc/') ? [] : ['--ro-bind-try', target, target];
  } catch {
    return [];
  }
}

export interface MaskInput {
  homeDir: string;
  stateDir: string;
  /** Every host path bound into the sandbox (roots); secrets under them are masked. */
  bound: string[];
  /** Whether a write at this path inside the sandbox lands on the host (a writable root covers it). */
  hostWritable: (p: string) => boolean;
  /** An empty file nobody can open (mode 000). */
  maskFile: string;
  /** The person's configuration: bound read-only over itself (created first when missing under a writable root). */
  configPaths: string[];
  /** /sys is in the view (its firmware and kernel parts are then hidden). */
  sys?: boolean;
}

/**
 * Hides secret files and directories that would otherwise be visible through /etc, /sys or a root,
 * and keeps the person's configuration read-only. A home secret that does not exist yet under a
 * writable root gets a placeholder on the host first, so a confined command cannot create it.
 *
 * What these leaf mounts guarantee: an existing secret is never readable from the sandbox (a mask
 * moves with a renamed parent and keeps hiding it), and nothing is written at a secret's own path
 * while its parents stay where they are. What no leaf mount can guarantee: under a write root that
 * contains home, a confined command may rename a parent (`mv ~/.docker ~/.docker-old`), recreate it
 * and write a new file under the old name (`~/.docker/config.json`) that the person's tools read
 * later. For Workbench's own policy that is closed at start-up (a write root holding the
 * configuration location is refused: src/config/config-location.ts); for other tools' files the
 * remedy is a project directory, not home, as the write root.
 */
export function maskMounts(m: MaskInput): string[] {
  const sshKeys = listDir('/etc/ssh').filter((n) => /^ssh_host_.*_key$/.test(n)).map((n) => join('/etc/ssh', n));
  const under = (p: string) => Boolean(p) && m.bound.some((b) => isWithin(p, b));
  const args: string[] = [];
  const mask = (p: string, kind: 'dir' | 'file' | 'link' | undefined) => {
    // A directory becomes an empty read-only tmpfs; a file is covered by the unreadable empty file.
    if (kind === 'dir') args.push('--tmpfs', p, '--remount-ro', p);
    else if (kind === 'file') args.push('--ro-bind', m.maskFile, p);
  };
  for (const p of [...ETC_SECRETS, ...sshKeys, ...(m.sys === false ? [] : SYS_HIDDEN)]) mask(p, kindOf(p));
  const home = m.homeDir && m.homeDir !== '/' ? m.homeDir : undefined;
  for (const rel of home ? HOME_SECRETS : []) {
    const p = join(home!, rel);
    if (!under(p)) continue;
    const kind = kindOf(p);
    if (kind === 'link') linkTarget(p, m, under).forEach((x) => mask(x, kindOf(x)));
    else mask(p, kind === undefined && m.hostWritable(p) ? createPlaceholder(p, home!, rel) : kind);
  }
  if (under(m.stateDir)) mask(m.stateDir, kindOf(m.stateDir));
  for (const p of m.configPaths) args.push(...readOnly(p, m));
  return args;
}

/**
 * A secret that is a symbolic link (dotfiles kept elsewhere): its target is masked when the sandbox
 * can see it. Under a writable root the link itself could be replaced by a real directory, which
 * no mount can prevent, so the run is refused.
 */
function linkTarget(p: string, m: MaskInput, visible: (x: string) => boolean): string[] {
  if (m.hostWritable(p)) {
    throw new AppError('unavailable', `${p} is a symbolic link inside a write root: a confined command could replace it, so nothing runs with this root`, {
      hint: 'choose write roots that do not contain your home directory, or make it a real directory',
    });
  }
  try {
    const target = realpathSync(p);
    return visible(target) ? [target] : [];
  } catch {
    return [];
  }
}

/** The person's config directory or file, read-only; a missing directory under a writable root is created (0700) first. */
function readOnly(p: string, m: MaskInput): string[] {
  const base = m.bound.filter((b) => isWithin(p, b) && b !== p).sort((a, b) => b.length - a.length)[0];
  if (!base) return [];
  if (kindOf(p) === undefined) {
    if (!m.hostWritable(p)) return [];
    createPlaceholder(p, base, '');
  }
  return ['--ro-bind', p, p];
}

/** True when p is `dir` or inside it. */
export function isWithin(p: string, dir: string): boolean {
  return p === dir || dir === '/' || p.startsWith(`${dir}/`);
}

function kindOf(p: string): 'link' | 'dir' | 'file' | undefined {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function listDir(d: string): string[] {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
}

// What a confined command sees of the host filesystem, as bubblewrap mount arguments.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { HOME_SECRETS, SYSTEM_SECRETS } from '../policy/sensitive-paths.js';

/** Secret files of the system and of home: one list, shared with the policy layer (src/policy/sensitive-paths.ts). */
const ETC_SECRETS = SYSTEM_SECRETS.filter((p) => p.startsWith('/etc/'));
/** sysfs parts that expose firmware tables, serial numbers and kernel debugging interfaces. */
const SYS_HIDDEN = ['/sys/firmware', '/sys/kernel'];

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
  /** An empty file nobody can open (mode 000), or /dev/null when none could be made. */
  maskFile: string;
  /** /sys is in the view (its firmware and kernel parts are then hidden). */
  sys?: boolean;
}

/** Hides secret files and directories that would otherwise be visible through /etc, /sys or a root. */
export function maskMounts(m: MaskInput): string[] {
  const sshKeys = listDir('/etc/ssh').filter((n) => /^ssh_host_.*_key$/.test(n)).map((n) => join('/etc/ssh', n));
  const home = m.homeDir && m.homeDir !== '/' ? HOME_SECRETS.map((s) => join(m.homeDir, s)) : [];
  const underRoots = [...home, m.stateDir].filter((p) => p && m.bound.some((b) => isWithin(p, b)));
  const args: string[] = [];
  for (const p of [...ETC_SECRETS, ...sshKeys, ...(m.sys === false ? [] : SYS_HIDDEN), ...underRoots]) {
    const kind = kindOf(p);
    // A directory becomes an empty read-only tmpfs; a file is covered by the unreadable empty file.
    if (kind === 'dir') args.push('--tmpfs', p, '--remount-ro', p);
    else if (kind === 'file') args.push('--ro-bind', m.maskFile, p);
  }
  return args;
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

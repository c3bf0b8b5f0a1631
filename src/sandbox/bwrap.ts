// The bubblewrap argv for one command: namespaces, what of the host is visible, and how.
import type { HostCapabilities } from './capabilities.js';
import { isWithin, maskMounts, resolverMounts, systemMounts, type Mount } from './bwrap-mounts.js';
import type { SandboxOptions } from './plan.js';

/** The fd the outer wrapper opens the seccomp program on (see plan.ts). */
export const SECCOMP_FD = 3;
const FALLBACK_HOME = '/home/workbench';
const HOSTNAME = 'workbench';
/** Host directories the system view binds (systemMounts), where a secret could otherwise show. */
const SYSTEM_BOUND = ['/usr', '/etc', '/opt', '/sys'];

/** Host-side files the arguments refer to. */
export interface BwrapFiles {
  /** Whether the wrapper opened the seccomp program on SECCOMP_FD. */
  seccomp: boolean;
  /** An empty mode-000 file bound over secret files. */
  maskFile: string;
}

/** bwrap arguments (ending with `--`) that confine a command to its profile's view of the host. */
export function bwrapArgs(opts: SandboxOptions, caps: HostCapabilities, files: BwrapFiles): string[] {
  const home = privateHome(opts.homeDir);
  const roots = rootMounts(opts, home);
  const seccomp = files.seccomp;
  return [
    // New user, pid, ipc, uts, cgroup and net namespaces. The pid namespace is what keeps other
    // processes' /proc/<pid>/environ and mem out of reach; the net namespace has only loopback.
    '--unshare-all',
    ...(caps.bubblewrap.hardening ?? []),
    ...(opts.network ? ['--share-net', ...resolverMounts()] : []),
    // A new session stops TIOCSTI keystroke injection into a terminal we might share.
    '--new-session',
    '--die-with-parent',
    '--cap-drop', 'ALL',
    '--hostname', HOSTNAME,
    ...roots.args,
    // The system dirs count as bound too: a state directory under /opt or /etc is masked as well.
    ...maskMounts({
      homeDir: opts.homeDir,
      stateDir: opts.stateDir,
      bound: [...roots.bound, ...SYSTEM_BOUND],
      hostWritable: (p) => hostWritable(p, opts, home),
      maskFile: files.maskFile,
      configPaths: opts.configPaths ?? [],
      sys: opts.sys,
    }),
    '--setenv', 'HOME', home,
    '--chdir', opts.cwd,
    ...(seccomp ? ['--seccomp', String(SECCOMP_FD)] : []),
    '--',
  ];
}

/**
 * System dirs, the private /tmp, the private HOME and the roots, parents before children: a
 * workspace under /tmp (or home) is bound after the tmpfs that hides the rest of /tmp (or home),
 * so it stays visible; a home inside a root still gets its private tmpfs on top; an explicit
 * root of `/` cannot cover the fresh /proc (its recursive bind would bring the host's /proc).
 */
function rootMounts(opts: SandboxOptions, home: string): { args: string[]; bound: string[] } {
  const writable = opts.profile === 'workspace-write' ? opts.writeRoots : [];
  const mounts: Mount[] = [
    ...systemMounts({ sys: opts.sys !== false }),
    { path: '/tmp', args: ['--tmpfs', '/tmp'] },
    { path: home, args: ['--tmpfs', home] },
  ];
  const bound = [...new Set([...opts.readRoots, ...writable, ...(opts.extraReadOnly ?? [])])];
  for (const r of bound) {
    // -try: a read root that does not exist on this host (say /var/log in a container) is skipped.
    mounts.push({ path: r, args: writable.includes(r) ? ['--bind-try', r, r] : ['--ro-bind-try', r, r] });
  }
  const depth = (p: string) => (p === '/' ? 0 : p.split('/').length);
  mounts.sort((a, b) => depth(a.path) - depth(b.path));
  return { args: mounts.flatMap((m) => m.args), bound };
}

/**
 * Whether a write at `p` inside the sandbox would land on the host: the deepest mount covering it
 * (a root bound after the private /tmp and HOME at the same depth wins) is a writable root.
 */
function hostWritable(p: string, opts: SandboxOptions, home: string): boolean {
  if (opts.profile !== 'workspace-write') return false;
  const covering = [
    { path: '/tmp', writable: false },
    { path: home, writable: false },
    ...[...new Set([...opts.readRoots, ...opts.writeRoots])].map((r) => ({ path: r, writable: opts.writeRoots.includes(r) })),
  ].filter((m) => isWithin(p, m.path));
  const depth = (x: string) => (x === '/' ? 0 : x.split('/').length);
  const deepest = covering.reduce<(typeof covering)[number] | undefined>((best, m) => (!best || depth(m.path) >= depth(best.path) ? m : best), undefined);
  return deepest?.writable ?? false;
}

/** HOME inside the sandbox: an empty tmpfs at the user's home path (so ~ paths in roots still work). */
function privateHome(homeDir: string): string {
  if (!homeDir.startsWith('/') || homeDir === '/') return FALLBACK_HOME;
  const system = ['/usr', '/etc', '/proc', '/dev', '/sys', '/opt', '/bin', '/sbin', '/lib'];
  return system.some((s) => isWithin(homeDir, s)) ? FALLBACK_HOME : homeDir;
}

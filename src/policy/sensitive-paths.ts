// Files no command may name in any restricted profile: credentials, keys, other processes' memory.

/**
 * Home-relative locations that hold credentials (tokens, keys, browser cookies). Exported for the
 * sandbox, which hides the same list (src/sandbox/bwrap-mounts.ts).
 */
export const HOME_SECRETS: readonly string[] = [
  '.ssh', '.aws', '.gnupg', '.config/gcloud', '.azure', '.kube', '.docker/config.json', '.netrc',
  '.git-credentials', '.config/git/credentials', '.npmrc', '.pypirc', '.config/gh', '.password-store',
  '.vault-token', '.pgpass', '.my.cnf', '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials',
  '.terraform.d/credentials.tfrc.json', '.local/share/keyrings', '.config/hub', '.oci', '.boto',
  '.m2/settings.xml', '.gradle/gradle.properties', '.mozilla', '.config/google-chrome', '.config/chromium',
  '.config/BraveSoftware', '.config/rclone', '.config/op', '.s3cfg', '.config/doctl', '.kaggle', '.config/containers/auth.json',
];

const EXACT = new Set([
  '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers', '/etc/security/opasswd',
  '/etc/krb5.keytab', '/etc/master.passwd', '/proc/kcore', '/proc/kmsg', '/proc/sysrq-trigger',
  '/dev/mem', '/dev/kmem', '/dev/port',
]);

const PREFIXES: readonly string[] = [
  '/etc/sudoers.d', '/etc/ssl/private', '/sys/firmware/efi/efivars', '/etc/wireguard', '/etc/NetworkManager/system-connections',
  '/etc/ipsec.secrets', '/etc/ipsec.d/private', '/etc/letsencrypt/live', '/etc/letsencrypt/archive', '/etc/libvirt/secrets',
  '/etc/pki/tls/private', '/etc/strongswan/ipsec.secrets', '/etc/ppp/chap-secrets', '/etc/ppp/pap-secrets',
];

/** Absolute system secrets (files and directories), for the sandbox's ETC_SECRETS as well. */
export const SYSTEM_SECRETS: readonly string[] = [...EXACT, ...PREFIXES];

/**
 * sysfs parts that expose firmware tables, serial numbers and kernel debugging interfaces: the
 * sandbox hides them (an empty tmpfs, src/sandbox/bwrap-mounts.ts) and no path may name them,
 * so an adapter (which reads the host directly) sees no more of /sys than a command does.
 */
export const SYS_HIDDEN: readonly string[] = ['/sys/firmware', '/sys/kernel'];

// A process's own directory holds its environment, memory, open files, root and cwd: each is a way
// around the path rules. Its entries are decided by an allowlist of what process listings and
// diagnostics read (status, cmdline, maps, mounts, net, …); any other entry (environ, mem, fd,
// fdinfo, root, cwd, exe, auxv, syscall, stack, pagemap, map_files, one added by a newer kernel) is private.
const PROC_PID_ENTRY = /^\/proc\/(?:\d+|self|thread-self)(?:\/task\/\d+)?\/([^/]+)/;
const PROC_PUBLIC = new Set([
  'stat', 'statm', 'status', 'cmdline', 'comm', 'cgroup', 'cpuset', 'io', 'limits', 'maps', 'smaps', 'smaps_rollup', 'numa_maps',
  'sched', 'schedstat', 'wchan', 'oom_score', 'oom_score_adj', 'oom_adj', 'loginuid', 'sessionid', 'mounts', 'mountinfo',
  'mountstats', 'net', 'ns', 'task', 'attr', 'uid_map', 'gid_map', 'projid_map', 'setgroups', 'autogroup', 'children',
  'arch_status', 'coredump_filter', 'cpu_resctrl_groups', 'personality', 'timerslack_ns',
]);

function procPrivate(p: string): boolean {
  const m = PROC_PID_ENTRY.exec(p);
  return m !== null && !PROC_PUBLIC.has(m[1]!);
}

const SSH_HOST_KEY = /^\/etc\/ssh\/[^/]*_key(?:$|[^.])/;

/** True when `p` is, or is inside, a location that is inside root. Strings must be normalized. */
export function isInside(p: string, root: string): boolean {
  if (root === '/') return true;
  if (p.length === root.length) return p === root;
  return p.length > root.length && p.charCodeAt(root.length) === 47 && p.startsWith(root);
}

/** True when the normalized absolute path `p` names a secret (see HOME_SECRETS and the system list). */
export function isSensitivePath(p: string, homeDir: string): boolean {
  if (EXACT.has(p)) return true;
  for (const pre of PREFIXES) if (isInside(p, pre)) return true;
  if (p.startsWith('/sys/') && SYS_HIDDEN.some((h) => isInside(p, h))) return true;
  if (p.startsWith('/proc/') && procPrivate(p)) return true;
  if (p.startsWith('/etc/ssh/') && SSH_HOST_KEY.test(p)) return true;
  return homeSecret(p, homeDir) || homeSecret(p, '/root') || homeSecret(p, userHome(p));
}

function userHome(p: string): string {
  if (!p.startsWith('/home/')) return '';
  const end = p.indexOf('/', 6);
  return end < 0 ? '' : p.slice(0, end);
}

function homeSecret(p: string, home: string): boolean {
  if (home === '' || home === '/' || !isInside(p, home) || p === home) return false;
  const rel = p.slice(home.length + 1);
  for (const s of HOME_SECRETS) if (rel === s || (rel.startsWith(s) && rel.charCodeAt(s.length) === 47)) return true;
  return false;
}

/** True when a recursive read of directory `p` would reach a secret or the state directory. */
export function coversSecrets(p: string, homeDir: string, stateDir: string): boolean {
  if (p === '/') return true;
  const roots = [...EXACT, ...PREFIXES, ...SYS_HIDDEN, '/etc/ssh', '/proc/self', stateDir];
  for (const s of HOME_SECRETS) roots.push(`${homeDir}/${s}`, `/root/${s}`);
  for (const r of roots) if (r.length > p.length && isInside(r, p)) return true;
  return p === '/home';
}

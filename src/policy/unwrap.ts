// Finds the command a wrapper runs (`sudo rm …`, `timeout 5 rm …`, `env X=1 rm …`) so the
// denylist sees through wrappers in every profile. Best effort: a wrapper whose options we do
// not know is unwrapped at its first operand.

interface WrapperSpec {
  /** Short options taking a value. */
  shortValue?: string;
  /** Long options taking a separate value. */
  longValue?: readonly string[];
  /** Operands before the command (timeout DURATION, chroot DIR, taskset MASK). */
  skip?: number;
  /** Leading NAME=VALUE operands are assignments (env). */
  assignments?: boolean;
  /** Option whose value is a shell command string (su -c, flock -c, script -c). */
  shellOption?: string;
}

const SPECS: Readonly<Record<string, WrapperSpec>> = {
  env: { shortValue: 'uCS', longValue: ['--unset', '--chdir', '--split-string'], assignments: true, shellOption: 'S' },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  timeout: { shortValue: 'ks', longValue: ['--kill-after', '--signal'], skip: 1 },
  nohup: {}, setsid: {}, time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  sudo: { shortValue: 'ugpChDrtTU', longValue: ['--user', '--group', '--prompt', '--close-from', '--host', '--chdir', '--role', '--type', '--command-timeout', '--other-user'] },
  doas: { shortValue: 'uC' }, runuser: { shortValue: 'ugc', shellOption: 'c' }, su: { shortValue: 'cgGsw', shellOption: 'c', skip: 0 },
  chroot: { longValue: ['--userspec', '--groups'], skip: 1 },
  unshare: { shortValue: 'SGR', longValue: ['--setuid', '--setgid', '--root', '--wd'] },
  nsenter: { shortValue: 'tSGrw', longValue: ['--target', '--setuid', '--setgid'] },
  xargs: { shortValue: 'aEILnPsd', longValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'] },
  ionice: { shortValue: 'cnpPu' }, chrt: { skip: 1 }, taskset: { skip: 1 },
  flock: { shortValue: 'wEc', shellOption: 'c', skip: 1 },
  strace: { shortValue: 'oepsuEIPSXbaO' }, ltrace: { shortValue: 'oepsuaAnS' },
  watch: { shortValue: 'nd', longValue: ['--interval'] }, script: { shortValue: 'cEIOBTm', shellOption: 'c' },
  busybox: {}, toybox: {}, exec: { shortValue: 'a' }, command: {}, builtin: {}, setpriv: {}, prlimit: {},
  'systemd-run': { shortValue: 'pEuMHs', longValue: ['--property', '--setenv', '--unit', '--machine', '--host', '--slice', '--description'] },
  firejail: {}, numactl: {}, faketime: { skip: 1 }, fakeroot: {}, unbuffer: {}, rlwrap: {}, sg: { skip: 1 },
};

/** The inner argv a wrapper runs and any shell text it runs, or null when `argv` is not a known wrapper. */
export function unwrap(argv: readonly string[], name: string): { inner: string[]; shellText: string[] } | null {
  const spec = SPECS[name];
  if (!spec) return null;
  const shellText: string[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') { i++; break; }
    if (!a.startsWith('-') || a === '-') break;
    if (spec.longValue?.includes(a)) { i++; continue; }
    if (a.startsWith('--')) continue;
    i = shortCluster(argv, i, spec, shellText);
  }
  if (spec.assignments) while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!)) i++;
  i += spec.skip ?? 0;
  return { inner: argv.slice(i), shellText };
}

function shortCluster(argv: readonly string[], i: number, spec: WrapperSpec, shellText: string[]): number {
  const a = argv[i]!;
  for (let k = 1; k < a.length; k++) {
    if (!spec.shortValue?.includes(a[k]!)) continue;
    const attached = k + 1 < a.length;
    const value = attached ? a.slice(k + 1) : argv[i + 1] ?? '';
    if (spec.shellOption === a[k]) shellText.push(value);
    return attached ? i : i + 1;
  }
  return i;
}

// Argument policies of the read-only system commands: each may look, none may change anything.
import { refuse } from '../denial.js';
import { hasOption, optionValues, parseOptions } from '../options.js';
import { fileCommand as f } from './file-command.js';
import { NO_PATHS, type ArgRule } from './types.js';

const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

const top: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, { cmd: 'top', shortValue: 'ndpuUoO' });
  if (!hasOption(parsed, 'b')) refuse('cmd.interactive', '`top` needs a terminal; run `top -b -n 1` (batch mode)');
  return NO_PATHS;
};

const hostname: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, { cmd: 'hostname', deniedShort: { F: 'system', b: 'system' }, deniedLong: { file: 'system', boot: 'system' } });
  if (parsed.operands.length > 0) refuse('arg.hostname_set', '`hostname NAME` sets the host name; only reading it is allowed');
  return NO_PATHS;
};

const date: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, {
    cmd: 'date', shortValue: 'dfr', longValue: ['date', 'file', 'reference', 'rfc-3339'],
    deniedShort: { s: 'system' }, deniedLong: { set: 'system' },
  });
  for (const o of parsed.operands) {
    if (!o.startsWith('+')) refuse('arg.date_set', `\`date ${o}\` sets the clock; pass a format starting with + or -d to parse a date`);
  }
  return { reads: optionValues(parsed, 'f', 'file', 'r', 'reference') };
};

const env: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, {
    cmd: 'env', shortValue: 'u', longValue: ['unset'], posixOrder: true,
    deniedShort: { S: 'exec', C: 'exec' }, deniedLong: { 'split-string': 'exec', chdir: 'exec' },
  });
  const command = parsed.operands.find((o) => !ASSIGN.test(o));
  if (command !== undefined) refuse('cmd.wrapper', `\`env ${command}\` runs another program; in this profile env only prints the environment`);
  return NO_PATHS;
};

const mount: ArgRule = ({ args }) => {
  const ok = args.length === 0 || (args[0] === '-l' && (args.length === 1 || (args.length === 3 && args[1] === '-t')));
  if (!ok) refuse('arg.mount', '`mount` may only list mounts (no arguments, or -l [-t TYPE]); mounting changes the system');
  return NO_PATHS;
};

// systemctl: an allowlist of options (flags, and value options with their values) and of verbs; any
// other option is refused, so an unknown value option can never swallow the real verb.
const SYSTEMCTL_READ = new Set([
  'status', 'show', 'is-active', 'is-enabled', 'is-failed', 'list-units', 'list-unit-files', 'list-timers',
  'list-sockets', 'cat', 'list-dependencies', 'help',
]);
const SYSTEMCTL_FLAGS = ['no-pager', 'plain', 'all', 'full', 'value', 'no-legend', 'quiet', 'failed', 'reverse', 'before', 'after', 'recursive', 'show-types', 'system', 'no-ask-password', 'help', 'version'];
const SYSTEMCTL_VALUES = ['type', 'state', 'output', 'property', 'lines', 'legend', 'timestamp'];

const systemctl: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, {
    cmd: 'systemctl', shortValue: 'tpon', longValue: SYSTEMCTL_VALUES, longFlags: SYSTEMCTL_FLAGS,
    deniedShort: { H: 'network', M: 'system' }, deniedLong: { host: 'network', machine: 'system', user: 'system', root: 'system', image: 'system' },
  });
  for (const o of parsed.options) {
    const ok = o.long ? SYSTEMCTL_FLAGS.includes(o.name) || (SYSTEMCTL_VALUES.includes(o.name) && o.value !== undefined) : 'alqrh'.includes(o.name) || ('tpon'.includes(o.name) && o.value !== undefined);
    if (!ok) refuse('arg.systemctl_option', `\`systemctl ${o.long ? '--' : '-'}${o.name}\` is not allowed in this profile; allowed: --no-pager --plain -a -l --value --no-legend -q -t -p -o -n --state`);
  }
  const verb = parsed.operands[0];
  if (verb !== undefined && !SYSTEMCTL_READ.has(verb)) {
    refuse('arg.systemctl_change', `\`systemctl ${verb}\` is not a read command; allowed: ${[...SYSTEMCTL_READ].join(', ')}`);
  }
  return NO_PATHS;
};

// journalctl: allowlisted options only; --file/--directory/--root/--image name paths that are checked.
const JOURNALCTL_VALUES = ['unit', 'user-unit', 'lines', 'priority', 'identifier', 'exclude-identifier', 'since', 'until', 'output', 'field', 'grep', 'directory', 'cursor', 'after-cursor', 'file', 'root', 'image', 'namespace', 'facility', 'output-fields'];
const JOURNALCTL_FLAGS = ['follow', 'no-pager', 'no-tail', 'reverse', 'utc', 'quiet', 'merge', 'list-boots', 'disk-usage', 'all', 'full', 'no-full', 'pager-end', 'catalog', 'dmesg', 'show-cursor', 'system', 'user', 'fields', 'list-namespaces', 'header', 'verify', 'help', 'version', 'no-hostname', 'boot', 'case-sensitive'];
const JOURNALCTL_SPEC = {
  operands: 'data' as const,
  shortValue: 'unptSUoFgDci',
  longValue: JOURNALCTL_VALUES,
  longFlags: JOURNALCTL_FLAGS,
  deniedShort: { M: 'system' as const },
  deniedLong: {
    'vacuum-size': 'system', 'vacuum-time': 'system', 'vacuum-files': 'system', rotate: 'system', flush: 'system',
    sync: 'system', 'relinquish-var': 'system', 'smart-relinquish-var': 'system', 'setup-keys': 'write',
    'update-catalog': 'write', 'cursor-file': 'write', machine: 'system',
  } as const,
  pathOptions: ['D', 'directory', 'i', 'file', 'root', 'image'],
  follow: ['f', 'follow'],
};
const journalctlFiles = f(JOURNALCTL_SPEC);

const journalctl: ArgRule = (input) => {
  const parsed = parseOptions(input.args, { ...JOURNALCTL_SPEC, cmd: 'journalctl' });
  for (const o of parsed.options) {
    const ok = o.long
      ? JOURNALCTL_FLAGS.includes(o.name) || (JOURNALCTL_VALUES.includes(o.name) && o.value !== undefined)
      : /^[0-9]$/.test(o.name) || 'bkrxeaqmfNhe'.includes(o.name) || (JOURNALCTL_SPEC.shortValue.includes(o.name) && o.value !== undefined);
    if (!ok) refuse('arg.journalctl_option', `\`journalctl ${o.long ? '--' : '-'}${o.name}\` is not allowed in this profile`);
    if (['D', 'directory', 'i', 'file', 'root', 'image'].includes(o.name) && /[*?[\]]/.test(o.value ?? '')) {
      refuse('arg.journalctl_glob', `\`journalctl ${o.long ? '--' : '-'}${o.name}\` with a glob names files the policy cannot check; name one path`);
    }
  }
  return journalctlFiles(input);
};

// ps: BSD-style option words without a dash; the `e` modifier there prints every process's environment.
const PS_DASH_VALUE = 'oOpqugUGtCs';
const PS_LONG_VALUE = new Set(['--format', '--pid', '--ppid', '--sort', '--cols', '--columns', '--rows', '--lines', '--user', '--User', '--group', '--Group', '--tty', '--sid', '--quick-pid', '--width']);
const PS_BSD_VALUE = 'oOpUtk';

const ps: ArgRule = ({ args }) => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      if (PS_LONG_VALUE.has(a)) i++;
      continue;
    }
    if (a.startsWith('-')) {
      const last = a[a.length - 1]!;
      const valueAt = [...a.slice(1)].findIndex((ch) => PS_DASH_VALUE.includes(ch));
      if (valueAt >= 0 && valueAt === a.length - 2 && PS_DASH_VALUE.includes(last)) i++;
      continue;
    }
    if (a.includes('e')) refuse('arg.ps_environment', `\`ps ${a}\` (BSD \`e\`) prints every process's environment; drop the e (\`ps -e\` lists every process)`);
    const valueAt = [...a].findIndex((ch) => PS_BSD_VALUE.includes(ch));
    if (valueAt >= 0 && valueAt === a.length - 1) i++;
  }
  return NO_PATHS;
};

const dmesg = f({
  operands: 'data',
  shortValue: 'Fflns',
  longValue: ['file', 'facility', 'level', 'buffer-size', 'kmsg-file', 'time-format', 'since', 'until'],
  longFlags: ['follow', 'follow-new'],
  deniedShort: { C: 'system', c: 'system', D: 'system', E: 'system', n: 'system' },
  deniedLong: { clear: 'system', 'read-clear': 'system', 'console-off': 'system', 'console-on': 'system', 'console-level': 'system' },
  pathOptions: ['F', 'file', 'kmsg-file'],
  follow: ['w', 'W', 'follow', 'follow-new'],
});

const ss = f({
  operands: 'data',
  shortValue: 'AfNFD',
  longValue: ['query', 'socket', 'family', 'net', 'filter'],
  deniedShort: { K: 'system', D: 'write' },
  deniedLong: { kill: 'system', diag: 'write' },
  pathOptions: ['F', 'filter'],
});

const data: ArgRule = () => NO_PATHS;

/** System commands: name → argument policy. */
export const SYSTEM_RULES: Record<string, ArgRule> = {
  top, hostname, date, env, mount, systemctl, journalctl, dmesg, ss,
  ps, uptime: data, free: data, vmstat: data, uname: data, whoami: data, id: data, groups: data,
  printenv: data, lscpu: data, lsblk: data, lsmem: data, nproc: data, getconf: data, w: data, who: data,
  lsof: data, pwd: data, arch: data, locale: data, logname: data, users: data, tty: data, cal: data,
  echo: data, printf: data, true: data, false: data, test: data, '[': data, seq: data, yes: data, sleep: data,
  which: data, numfmt: data, expr: data, factor: data,
};

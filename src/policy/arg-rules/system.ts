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

const SYSTEMCTL_READ = new Set([
  'status', 'show', 'cat', 'is-active', 'is-enabled', 'is-failed', 'is-system-running', 'list-units', 'list-unit-files',
  'list-timers', 'list-sockets', 'list-jobs', 'list-dependencies', 'list-machines', 'list-paths', 'list-automounts',
  'get-default', 'show-environment',
]);

const systemctl: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, {
    cmd: 'systemctl', shortValue: 'tpPnosM',
    longValue: ['type', 'state', 'property', 'lines', 'output', 'root', 'image', 'machine', 'job-mode', 'kill-whom', 'signal', 'what', 'timestamp', 'message', 'when'],
    deniedShort: { H: 'network' }, deniedLong: { host: 'network' },
  });
  const verb = parsed.operands[0];
  if (verb !== undefined && !SYSTEMCTL_READ.has(verb)) {
    refuse('arg.systemctl_change', `\`systemctl ${verb}\` is not a read command; allowed: ${[...SYSTEMCTL_READ].join(', ')}`);
  }
  return NO_PATHS;
};

const journalctl = f({
  operands: 'data',
  shortValue: 'unptSUoFgMDci',
  longValue: ['unit', 'user-unit', 'lines', 'priority', 'identifier', 'since', 'until', 'output', 'field', 'grep', 'machine', 'directory', 'cursor', 'after-cursor', 'file', 'root', 'image', 'namespace', 'facility', 'output-fields'],
  longFlags: ['follow', 'no-pager', 'no-tail', 'reverse', 'utc', 'quiet', 'merge', 'list-boots', 'disk-usage', 'flush', 'sync', 'rotate'],
  deniedLong: {
    'vacuum-size': 'system', 'vacuum-time': 'system', 'vacuum-files': 'system', rotate: 'system', flush: 'system',
    sync: 'system', 'relinquish-var': 'system', 'smart-relinquish-var': 'system', 'setup-keys': 'write',
    'update-catalog': 'write', 'cursor-file': 'write',
  },
  pathOptions: ['D', 'directory', 'i', 'file', 'root', 'image'],
  follow: ['f', 'follow'],
});

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
  ps: data, uptime: data, free: data, vmstat: data, uname: data, whoami: data, id: data, groups: data,
  printenv: data, lscpu: data, lsblk: data, lsmem: data, nproc: data, getconf: data, w: data, who: data,
  lsof: data, pwd: data, arch: data, locale: data, logname: data, users: data, tty: data, cal: data,
  echo: data, printf: data, true: data, false: data, test: data, '[': data, seq: data, yes: data, sleep: data,
  which: data, numfmt: data, expr: data, factor: data,
};

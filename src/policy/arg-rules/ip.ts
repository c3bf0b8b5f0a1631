// ip (iproute2) in read-only: `ip [options] OBJECT [show|list|get|help ...]` only.
// ip matches options and objects by ANY prefix, first match in its own table order (`-b` is
// -batch, `-n` is -netns, `-fa` is -family). Order and tables differ between versions, so a word
// follows ip's first-match order, and a word that abbreviates -batch or -netns is refused.
// -batch (runs the commands in a file), -force and -netns (enters another namespace) are refused,
// as is any option after the object.
import { refuse } from '../denial.js';
import { NO_PATHS, type ArgRule } from './types.js';

type Kind = 'flag' | 'value' | 'batch' | 'force' | 'netns';

/** iproute2 6.x global options, in ip.c's order. */
const OPTIONS: ReadonlyArray<readonly [string, Kind]> = [
  ['-loops', 'value'], ['-family', 'value'], ['-human', 'flag'], ['-human-readable', 'flag'], ['-iec', 'flag'],
  ['-stats', 'flag'], ['-statistics', 'flag'], ['-details', 'flag'], ['-resolve', 'flag'], ['-oneline', 'flag'],
  ['-timestamp', 'flag'], ['-tshort', 'flag'], ['-Version', 'flag'], ['-force', 'force'], ['-batch', 'batch'],
  ['-brief', 'flag'], ['-json', 'flag'], ['-pretty', 'flag'], ['-rcvbuf', 'value'], ['-color', 'flag'], ['-help', 'flag'],
  ['-netns', 'netns'], ['-Numeric', 'flag'], ['-all', 'flag'], ['-echo', 'flag'],
];
const EXACT_FLAGS = new Set(['-4', '-6', '-0', '-M', '-B']);

/** Objects whose show/list/get are harmless (monitor hangs, xfrm shows IPsec keys: not here). */
const ALLOWED_OBJECTS = new Set([
  'address', 'addrlabel', 'amt', 'maddress', 'route', 'rule', 'neighbor', 'neighbour', 'ntable', 'ntbl', 'link', 'l2tp',
  'fou', 'ila', 'macsec', 'tunnel', 'tuntap', 'tap', 'token', 'tcpmetrics', 'tcp_metrics', 'mroute', 'mrule', 'netns',
  'netconf', 'vrf', 'sr', 'nexthop', 'mptcp', 'ioam', 'stats', 'help',
]);
const ALL_OBJECTS = [...ALLOWED_OBJECTS, 'monitor', 'xfrm'];
const READ_VERBS = new Set(['show', 'sho', 'sh', 'list', 'lis', 'li', 'ls', 'lst', 'get', 'help']);

/** Read-only policy for ip. */
export const ipRule: ArgRule = ({ args }) => {
  let i = 0;
  for (; i < args.length; i++) {
    const raw = args[i]!;
    if (raw === '--') { i++; break; }
    if (!raw.startsWith('-')) break;
    if (raw === '-b' || raw.startsWith('-b') && '-batch'.startsWith(raw) || raw.startsWith('--b') && '--batch'.startsWith(raw)) {
      refuse('arg.ip_batch', '`ip -batch` runs the commands in a file; run one show command per call');
    }
    if (optionKind(raw) === 'value') i++;
  }
  const object = args[i];
  if (object === undefined) return NO_PATHS;
  const objects = ALL_OBJECTS.filter((o) => o.startsWith(object));
  if (objects.length === 0 || objects.some((o) => !ALLOWED_OBJECTS.has(o))) {
    refuse('arg.ip_object', `\`ip ${object}\` is not allowed (it may mean ${objects.join('/') || 'an unknown object'}); use ip address|link|route|neigh|rule show; \`ip monitor\` never ends`);
  }
  const rest = args.slice(i + 1);
  const dash = rest.find((a) => a.startsWith('-'));
  if (dash !== undefined) refuse('arg.ip_option_after_object', `\`ip ${object} ... ${dash}\`: options go before the object (ip -s link show), not after it`);
  const verb = rest[0];
  if (verb !== undefined && !READ_VERBS.has(verb)) {
    refuse('arg.ip_change', `\`ip ${object} ${verb}\` may change the network configuration; only show/list/get are allowed (spelled out)`);
  }
  if (objects.includes('netns') && verb !== undefined && verb !== 'list' && verb !== 'ls' && verb !== 'show') {
    refuse('arg.ip_change', `\`ip netns ${verb}\` is not allowed; only \`ip netns list\``);
  }
  return NO_PATHS;
};

/** What an ip global option means, refusing the dangerous ones in every abbreviation. */
function optionKind(raw: string): Kind {
  if (EXACT_FLAGS.has(raw)) return 'flag';
  const opt = raw.startsWith('--') ? raw.slice(1) : raw;
  if (opt.startsWith('-color=')) return 'flag';
  if (opt.length < 2) refuse('arg.ip_option', `\`ip ${raw}\` is ambiguous; spell the option out`);
  const matches = OPTIONS.filter(([name]) => name.startsWith(opt));
  // -batch and -netns are refused in every abbreviation any ip version could read as them.
  if (matches.some(([, k]) => k === 'batch')) refuse('arg.ip_batch', '`ip -batch` runs the commands in a file; run one show command per call');
  if (matches.some(([, k]) => k === 'netns')) refuse('arg.ip_netns', `\`ip ${raw}\` (-netns) runs ip in another network namespace; it is refused in this profile`);
  // Otherwise ip takes the first match in its table (`-f` is -family, `-r` is -resolve).
  const first = matches[0];
  if (first === undefined) refuse('arg.ip_option', `\`ip ${raw}\` is not a known ip option`);
  if (first[1] === 'force') refuse('arg.ip_force', '`ip -force` is only for -batch; it is refused in this profile');
  return first[1];
}

// ip (iproute2) in read-only: `ip [options] OBJECT [show|list|get|help ...]` only; -batch is refused
// because it runs the ip commands in a file.
import { refuse } from '../denial.js';
import { NO_PATHS, type ArgRule } from './types.js';

const OBJECTS = ['address', 'addrlabel', 'link', 'route', 'rule', 'neighbour', 'neighbor', 'ntable', 'maddress', 'mroute', 'tunnel', 'tuntap', 'netconf', 'netns', 'vrf', 'nexthop', 'mptcp', 'stats', 'token', 'l2tp', 'fou', 'sr', 'macsec', 'help'];
const READ_VERBS = new Set(['show', 'sho', 'sh', 'list', 'lis', 'li', 'ls', 'lst', 'get', 'help', 'showdump']);
const VALUE_OPTS = ['-netns', '-rcvbuf', '-loops', '-family', '-n', '-rc', '-l', '-f'];

/** Read-only policy for ip. */
export const ipRule: ArgRule = ({ args }) => {
  let i = 0;
  for (; i < args.length; i++) {
    let a = args[i]!;
    if (!a.startsWith('-')) break;
    if (a.startsWith('--')) a = a.slice(1);
    if (a === '-b' || (a.length > 2 && '-batch'.startsWith(a))) refuse('arg.ip_batch', '`ip -batch` runs the commands in a file; run one show command per call');
    if (VALUE_OPTS.some((v) => v === a || (a.length > 3 && v.startsWith(a)))) i++;
  }
  const object = args[i];
  if (object === undefined) return NO_PATHS;
  if (!OBJECTS.some((o) => o.startsWith(object))) refuse('arg.ip_object', `\`ip ${object}\` is not allowed; use ip address|link|route|neigh|rule show`);
  const verb = args[i + 1];
  if (verb !== undefined && !READ_VERBS.has(verb) && !verb.startsWith('-')) {
    refuse('arg.ip_change', `\`ip ${object} ${verb}\` changes the network configuration; only show/list/get are allowed`);
  }
  return NO_PATHS;
};

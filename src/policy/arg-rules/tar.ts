// tar in read-only: list mode (-t) only; options that run programs, write files or reach a
// remote archive (`host:file`) are refused.
import { refuse } from '../denial.js';
import { hasOption, optionValues, parseOptions, type OptionSpec } from '../options.js';
import type { ArgRule } from './types.js';

const VALUE_LETTERS = 'bCfFgHIKLNTVX';

const SPEC: OptionSpec = {
  cmd: 'tar',
  shortValue: VALUE_LETTERS,
  longValue: ['file', 'directory', 'files-from', 'exclude-from', 'exclude', 'blocking-factor', 'format', 'starting-file', 'tape-length', 'newer', 'newer-mtime', 'after-date', 'label', 'owner', 'group', 'mode', 'mtime', 'transform', 'xform', 'strip-components', 'record-size', 'occurrence', 'quoting-style', 'sort', 'owner-map', 'group-map'],
  longFlags: ['list', 'verbose', 'version', 'force-local', 'gzip', 'gunzip', 'bzip2', 'xz', 'lzma', 'lzip', 'lzop', 'zstd', 'auto-compress', 'to-stdout', 'wildcards'],
  deniedShort: { x: 'write', c: 'write', r: 'write', u: 'write', A: 'write', d: 'read', I: 'exec', F: 'exec', g: 'write', U: 'write' },
  deniedLong: {
    'to-command': 'exec', 'checkpoint-action': 'exec', 'use-compress-program': 'exec', 'compress-program': 'exec',
    'rsh-command': 'exec', 'rmt-command': 'exec', 'info-script': 'exec', 'new-volume-script': 'exec',
    'index-file': 'write', 'listed-incremental': 'write', 'volno-file': 'write', extract: 'write', get: 'write',
    create: 'write', append: 'write', update: 'write', catenate: 'write', concatenate: 'write', delete: 'write',
    'remove-files': 'write', diff: 'read', compare: 'read',
  },
};

/** Rewrites old-style `tar tvf x.tar` into `-t -v -f x.tar` so one parser sees every form. */
function expandOldStyle(args: readonly string[]): readonly string[] {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return args;
  const out: string[] = [];
  let next = 1;
  for (const letter of first) {
    out.push(`-${letter}`);
    if (VALUE_LETTERS.includes(letter) && next < args.length) out.push(args[next++]!);
  }
  return [...out, ...args.slice(next)];
}

/** Read-only policy for tar. */
export const tarRule: ArgRule = ({ args }) => {
  const parsed = parseOptions(expandOldStyle(args), SPEC);
  if (hasOption(parsed, 'version', 'help', 'usage')) return {};
  if (!hasOption(parsed, 't', 'list')) refuse('arg.tar_mode', 'tar may only list archives (-t) in this profile; extracting or creating writes files');
  const archives = optionValues(parsed, 'f', 'file');
  if (!hasOption(parsed, 'force-local')) {
    for (const a of archives) {
      const colon = a.indexOf(':');
      if (colon > 0 && !a.slice(0, colon).includes('/')) refuse('arg.tar_remote', `tar reads ${a} from a remote host over rsh; name a local file (or add --force-local)`);
    }
  }
  return { reads: [...archives.filter((a) => a !== '-'), ...optionValues(parsed, 'T', 'files-from', 'X', 'exclude-from', 'C', 'directory')] };
};

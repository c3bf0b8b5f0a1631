// jq: the filter cannot run programs, but it can load code and data: modules (`import`/`include`,
// `modulemeta`, -L DIR) and program files (-f, which also hides the filter from this check) are
// refused; files it reads (inputs, --rawfile/--slurpfile) are path-checked. Options are allowlisted
// so an unknown option can never shift which argument is the filter.
import { refuse } from '../denial.js';
import type { ArgRule } from './types.js';

const TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
const ONE_VALUE = new Set(['--indent']);
const LONG_FLAGS = new Set([
  '--args', '--jsonargs', '--seq', '--stream', '--stream-errors', '--tab', '--ascii-output', '--unbuffered', '--sort-keys',
  '--color-output', '--monochrome-output', '--join-output', '--raw-output', '--raw-output0', '--null-input', '--raw-input',
  '--slurp', '--compact-output', '--exit-status', '--help', '--version', '--build-configuration',
]);
const SHORT_FLAGS = 'nrjascCMSeRhV';
const MODULE = /(?<![.$\w])(?:import|include|modulemeta|get_search_list)(?!\w)/;

/** Policy for jq. */
export const jqRule: ArgRule = ({ args }) => {
  const reads: string[] = [];
  const operands: string[] = [];
  let positionalArgs = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (ended || a === '-' || !a.startsWith('-')) { operands.push(a); continue; }
    if (a === '--') { ended = true; continue; }
    if (a === '--args' || a === '--jsonargs') positionalArgs = true;
    if (a === '-f' || a === '--from-file' || (!a.startsWith('--') && a.includes('f'))) {
      refuse('arg.jq_from_file', '`jq -f FILE` runs a filter the policy cannot check; pass the filter inline');
    }
    if (a === '-L' || a.startsWith('--library-path') || (!a.startsWith('--') && a.includes('L'))) {
      refuse('arg.jq_library_path', '`jq -L DIR` loads jq modules the policy cannot check; inline the definitions');
    }
    if (TWO_VALUES.has(a)) {
      if (i + 2 >= args.length) refuse('arg.jq_option', `\`jq ${a}\` needs a name and a value`);
      if (a === '--slurpfile' || a === '--rawfile') reads.push(args[i + 2]!);
      i += 2;
    } else if (ONE_VALUE.has(a)) {
      i++;
    } else if (a.startsWith('--')) {
      if (!LONG_FLAGS.has(a)) refuse('arg.jq_option', `\`jq ${a}\` is not allowed in this profile`);
    } else if (![...a.slice(1)].every((ch) => SHORT_FLAGS.includes(ch))) {
      refuse('arg.jq_option', `\`jq ${a}\` is not allowed in this profile`);
    }
  }
  const filter = operands.shift();
  if (filter !== undefined && MODULE.test(filter)) refuse('arg.jq_module', 'jq `import`/`include`/`modulemeta` load modules the policy cannot check; inline the definitions');
  if (!positionalArgs) for (const o of operands) if (o !== '-') reads.push(o);
  return { reads: reads.filter((r) => r !== '') };
};

// jq: the filter cannot run programs; files it reads (inputs, --rawfile/--slurpfile, -f, -L) are path-checked.
import { refuse } from '../denial.js';
import type { ArgRule } from './types.js';

const TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
const ONE_VALUE = new Set(['--indent', '-f', '--from-file', '-L']);
const MODULE = /\b(?:import|include)\s*"/;

/** Policy for jq. */
export const jqRule: ArgRule = ({ args }) => {
  const reads: string[] = [];
  const operands: string[] = [];
  let fromFile = false;
  let positionalArgs = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--args' || a === '--jsonargs') positionalArgs = true;
    else if (TWO_VALUES.has(a)) {
      if (a === '--slurpfile' || a === '--rawfile') reads.push(args[i + 2] ?? '');
      i += 2;
    } else if (ONE_VALUE.has(a)) {
      const v = args[++i] ?? '';
      if (a !== '--indent') reads.push(v);
      if (a === '-f' || a === '--from-file') fromFile = true;
    } else if (a.startsWith('-L') && a.length > 2) reads.push(a.slice(2));
    else if (a === '-' || !a.startsWith('-') || a.length === 1) operands.push(a);
  }
  const filter = fromFile ? undefined : operands.shift();
  if (filter !== undefined && MODULE.test(filter)) refuse('arg.jq_module', 'jq `import`/`include` loads modules the policy cannot check; inline the definitions');
  if (!positionalArgs) for (const o of operands) if (o !== '-') reads.push(o);
  return { reads: reads.filter((r) => r !== '') };
};

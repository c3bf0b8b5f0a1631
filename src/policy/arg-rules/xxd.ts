// xxd: `xxd IN OUT` writes OUT, so read-only allows one file operand; option values are skipped.
import { refuse } from '../denial.js';
import type { ArgRule } from './types.js';

const VALUE_OPTS = new Set(['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-o', '-offset', '-s', '-seek', '-n', '-name']);

/** Read-only policy for xxd. */
export const xxdRule: ArgRule = ({ args }) => {
  const operands: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!ended && a === '--') ended = true;
    else if (!ended && VALUE_OPTS.has(a)) i++;
    else if (ended || a === '-' || !a.startsWith('-')) operands.push(a);
  }
  if (operands.length > 1) refuse('arg.xxd_output_operand', '`xxd IN OUT` writes OUT; in this profile xxd may only print to stdout');
  return { reads: operands.filter((o) => o !== '-') };
};

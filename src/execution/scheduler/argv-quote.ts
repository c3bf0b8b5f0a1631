// Writes resolved pipeline stages back as one command string that the policy tokenizer reads into
// exactly the same argvs: every argument single-quoted. Used only for pipelines (a single stage goes
// to the tool as an argv array), and checked by tokenizing it again: any difference is refused.
import { isDeepStrictEqual } from 'node:util';
import { tokenize } from '../../policy/tokenize.js';
import { SubstitutionError } from './context-refs.js';

/** `'a' 'b c' | 'd'` for [["a","b c"],["d"]]; throws when the round trip would not be exact. */
export function quoteStages(stages: readonly string[][]): string {
  const text = stages.map((argv) => argv.map(quoteArg).join(' ')).join(' | ');
  let back: string[][] | null = null;
  try {
    back = tokenize(text).stages;
  } catch {
    back = null;
  }
  if (!back || !isDeepStrictEqual(back, stages)) {
    throw new SubstitutionError('context.template', 'the resolved pipeline cannot be passed on exactly as it was tokenized; send the stages as separate steps');
  }
  return text;
}

function quoteArg(a: string): string {
  return `'${a.replace(/'/g, `'\\''`)}'`;
}

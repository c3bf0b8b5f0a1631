// Builds argument policies for the many file and text commands that differ only in which options
// take values, which values are paths and which options are refused.
import { refuse } from '../denial.js';
import { hasOption, optionValues, parseOptions, type OptionSpec, type ParsedArgs } from '../options.js';
import type { ArgRule, ArgVerdict, RuleInput } from './types.js';

export interface FileCommandSpec extends Omit<OptionSpec, 'cmd'> {
  /** How operands are read: file paths, plain data, or a pattern followed by paths (grep). */
  operands?: 'paths' | 'data' | 'pattern-then-paths';
  /** Options whose presence means the pattern came from them (grep -e/-f). */
  patternOptions?: readonly string[];
  /** Options (short letters or long names) whose values are paths read by the command. */
  pathOptions?: readonly string[];
  /** Options whose values are paths the command writes to (sort -T): checked as writes. */
  writeOptions?: readonly string[];
  /** More operands than this are refused: the extra one would be written (uniq IN OUT). */
  maxOperands?: number;
  /** Options that make the command read directories recursively, or 'always'. */
  recursive?: readonly string[] | 'always';
  /** Options that follow output forever (tail -f): refused outside job mode. */
  follow?: readonly string[];
  /** Operands starting with `@` name a file of options (binutils); check the file. */
  atFiles?: boolean;
}

/** An argument policy for a file/text command described by `spec`. */
export function fileCommand(spec: FileCommandSpec): ArgRule {
  return (input: RuleInput): ArgVerdict => {
    const parsed = parseOptions(input.args, { ...spec, cmd: input.cmd });
    if (spec.follow && input.mode === 'sync' && hasOption(parsed, ...spec.follow)) {
      refuse(`arg.${input.cmd}_follow`, `\`${input.cmd}\` with a follow option never ends on its own; run it with job_start and read job_output`);
    }
    const operands = pathOperands(parsed, spec, input.cmd);
    const reads = spec.pathOptions ? optionValues(parsed, ...spec.pathOptions) : [];
    const writes = spec.writeOptions ? optionValues(parsed, ...spec.writeOptions) : [];
    if (isRecursive(parsed, spec)) return { reads, writes, recursiveReads: operands.length > 0 ? operands : ['.'] };
    for (const o of operands) reads.push(o);
    return { reads, writes };
  };
}

function pathOperands(parsed: ParsedArgs, spec: FileCommandSpec, cmd: string): string[] {
  const mode = spec.operands ?? 'paths';
  if (mode === 'data') return [];
  let ops = parsed.operands;
  if (mode === 'pattern-then-paths' && !hasOption(parsed, ...(spec.patternOptions ?? []))) ops = ops.slice(1);
  if (spec.maxOperands !== undefined && ops.length > spec.maxOperands) {
    refuse(`arg.${cmd}_output_operand`, `\`${cmd}\` with more than ${spec.maxOperands} file operand(s) writes the last one; in this profile it may only read`);
  }
  if (spec.atFiles) return ops.map((o) => (o.startsWith('@') && o.length > 1 ? o.slice(1) : o));
  return ops;
}

function isRecursive(parsed: ParsedArgs, spec: FileCommandSpec): boolean {
  if (spec.recursive === 'always') return true;
  if (!spec.recursive) return false;
  for (const o of parsed.options) {
    if (spec.recursive.includes(o.name)) return true;
    // grep accepts any non-empty prefix of an argument value: `-d rec` is `--directories=recurse`.
    if ((o.name === 'd' || o.name === 'directories') && o.value !== undefined && o.value !== '' && 'recurse'.startsWith(o.value)) return true;
  }
  return false;
}

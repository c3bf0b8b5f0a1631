// workspace-write: the commands that obviously write files have their targets checked against the
// write roots; everything else is left to the OS sandbox (SPEC §4).
import { findLayout, findWrites } from './arg-rules/find.js';
import type { ArgVerdict } from './arg-rules/types.js';
import { hasOption, optionValues, parseOptions, type OptionSpec } from './options.js';

type Writer = (args: readonly string[]) => ArgVerdict;

const spec = (cmd: string, shortValue = '', longValue: string[] = []): OptionSpec => ({ cmd, shortValue, longValue });

/** Every operand is written (rm, touch, mkdir, tee, shred, truncate …). */
const allOperands = (s: OptionSpec): Writer => (args) => ({ writes: parseOptions(args, s).operands });

/** cp/mv/ln/install: the destination (last operand or -t DIR) is written; mv also removes its sources. */
const copyLike = (s: OptionSpec, sourcesWritten: boolean): Writer => (args) => {
  const p = parseOptions(args, s);
  const target = optionValues(p, 't', 'target-directory');
  if (target.length > 0) return sourcesWritten ? { writes: [...target, ...p.operands] } : { writes: target, reads: p.operands };
  if (p.operands.length < 2) return { writes: p.operands };
  const dest = p.operands[p.operands.length - 1]!;
  const sources = p.operands.slice(0, -1);
  return sourcesWritten ? { writes: [dest, ...sources] } : { writes: [dest], reads: sources };
};

/** chmod/chown/chgrp: the first operand is the mode or owner unless --reference is given. */
const modeLike = (cmd: string): Writer => (args) => {
  const p = parseOptions(args, spec(cmd, '', ['reference', 'from']));
  const modeInOptions = cmd === 'chmod' && args.some((a) => /^-[rwxXst]+$/.test(a));
  const skip = hasOption(p, 'reference') || modeInOptions ? 0 : 1;
  return { writes: p.operands.slice(skip) };
};

const CP = spec('cp', 'tS', ['target-directory', 'suffix']);

/** Command name → which of its arguments it writes. */
export const WRITERS: Readonly<Record<string, Writer>> = {
  rm: allOperands(spec('rm')), rmdir: allOperands(spec('rmdir')), unlink: allOperands(spec('unlink')),
  shred: allOperands(spec('shred', 'nsu', ['iterations', 'size', 'remove'])),
  touch: allOperands(spec('touch', 'drt', ['date', 'reference', 'time'])),
  mkdir: allOperands(spec('mkdir', 'mZ', ['mode'])),
  tee: allOperands(spec('tee')),
  truncate: allOperands(spec('truncate', 'sr', ['size', 'reference'])),
  cp: copyLike(CP, false), mv: copyLike(spec('mv', 'tS', ['target-directory', 'suffix']), true),
  ln: copyLike(spec('ln', 'tS', ['target-directory', 'suffix']), false),
  install: copyLike(spec('install', 'mogtS', ['mode', 'owner', 'group', 'target-directory', 'suffix']), false),
  chmod: modeLike('chmod'), chown: modeLike('chown'), chgrp: modeLike('chgrp'),
  dd: (args) => ({ writes: args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)) }),
  sort: (args) => ({ writes: optionValues(parseOptions(args, spec('sort', 'kStTo', ['key', 'buffer-size', 'field-separator', 'temporary-directory', 'output'])), 'o', 'output') }),
  sed: (args) => {
    const p = parseOptions(args, spec('sed', 'efl', ['expression', 'file', 'line-length']));
    if (!hasOption(p, 'i', 'in-place')) return {};
    return { writes: hasOption(p, 'e', 'expression', 'f', 'file') ? p.operands : p.operands.slice(1) };
  },
  find: (args) => (findWrites(args) ? { writes: findLayout(args).starts } : {}),
};

// A getopt_long-compatible option scanner for argument policies. It must see options exactly as
// the program will: `--opt=V`, `--opt V`, `-oV`, clustered flags (`-mo FILE`), `--` and GNU
// long-option abbreviations (`--compress-prog=sh` is `--compress-program`).
import { refuse } from './denial.js';

/** Why an option is refused; the text ends the denial message. */
export type Danger = 'exec' | 'write' | 'system' | 'network' | 'follow' | 'interactive' | 'read';

const WHY: Record<Danger, string> = {
  exec: 'runs another program',
  write: 'writes files',
  system: 'changes the system',
  network: 'reaches the network',
  follow: 'never ends on its own; run it with job_start and read job_output',
  interactive: 'needs a terminal',
  read: 'reads files the policy cannot check',
};

export interface OptionSpec {
  /** Command name, used in rule ids (`arg.sort_compress_program`) and messages. */
  cmd: string;
  /** Short options that take a value (`-k2`, `-k 2`). */
  shortValue?: string;
  /** Long options that take a value (`--key=2`, `--key 2`). */
  longValue?: readonly string[];
  /** Long flags that must win over an abbreviation of a denied option (`--text` vs `--textconv`). */
  longFlags?: readonly string[];
  /** Short options refused, with the reason. */
  deniedShort?: Readonly<Record<string, Danger>>;
  /** Long options refused, with the reason; every abbreviation of one is refused too. */
  deniedLong?: Readonly<Record<string, Danger>>;
  /** Options stop at the first operand (POSIX order) instead of GNU permutation. */
  posixOrder?: boolean;
}

export interface ParsedOption {
  /** Letter for a short option, full (de-abbreviated where known) name for a long one. */
  name: string;
  value?: string;
  long: boolean;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: string[];
}

/** Throws the `arg.<cmd>_<option>` denial for a refused option. */
export function refuseOption(cmd: string, option: string, danger: Danger): never {
  const id = option.replace(/^-+/, '').replace(/[^A-Za-z0-9]+/g, '_');
  refuse(`arg.${cmd}_${id}`, `\`${cmd} ${option}\` is refused in this profile: it ${WHY[danger]}`);
}

/** Splits args into options and operands, refusing denied options in every spelling. */
export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (ended || a === '-' || a.charCodeAt(0) !== 45) {
      operands.push(a);
      if (spec.posixOrder) ended = true;
    } else if (a === '--') {
      ended = true;
    } else if (a.charCodeAt(1) === 45) {
      const eq = a.indexOf('=');
      const name = resolveLong(eq < 0 ? a.slice(2) : a.slice(2, eq), spec);
      let value = eq < 0 ? undefined : a.slice(eq + 1);
      if (value === undefined && spec.longValue?.includes(name)) value = args[++i];
      options.push({ name, value, long: true });
    } else {
      i = parseCluster(args, i, spec, options);
    }
  }
  return { options, operands };
}

function parseCluster(args: readonly string[], i: number, spec: OptionSpec, out: ParsedOption[]): number {
  const a = args[i]!;
  for (let k = 1; k < a.length; k++) {
    const ch = a[k]!;
    const danger = spec.deniedShort?.[ch];
    if (danger) refuseOption(spec.cmd, `-${ch}`, danger);
    if (spec.shortValue?.includes(ch)) {
      const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
      out.push({ name: ch, value, long: false });
      return i;
    }
    out.push({ name: ch, long: false });
  }
  return i;
}

/** Exact names win; any other prefix of a denied option is refused; a unique prefix of a known option is that option. */
function resolveLong(name: string, spec: OptionSpec): string {
  const denied = spec.deniedLong;
  if (denied && Object.hasOwn(denied, name)) refuseOption(spec.cmd, `--${name}`, denied[name]!);
  if (spec.longValue?.includes(name) || spec.longFlags?.includes(name)) return name;
  if (name === '') return name;
  if (denied) {
    for (const d in denied) if (d.startsWith(name)) refuseOption(spec.cmd, `--${d}`, denied[d]!);
  }
  let match: string | undefined;
  for (const list of [spec.longValue, spec.longFlags]) {
    for (const v of list ?? []) {
      if (!v.startsWith(name)) continue;
      if (match !== undefined) return name;
      match = v;
    }
  }
  return match ?? name;
}

/** True when a parsed option list contains one of the names. */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

/** Values of the options with one of the names. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): string[] {
  const out: string[] = [];
  for (const o of parsed.options) if (o.value !== undefined && names.includes(o.name)) out.push(o.value);
  return out;
}

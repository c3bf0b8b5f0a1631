// Templating on structure: a step's command is tokenized BEFORE any context value goes in, and each
// reference then fills exactly one already-tokenized argument (or its part of one). A value is data:
// whatever it holds (`|`, `;`, `$(…)`, quotes, spaces, newlines) stays inside that one argument.
import { tokenize } from '../../policy/tokenize.js';
import { REF_SOURCE, refValue, SubstitutionError, type ResolveOptions } from './context-refs.js';
import type { TaskContext } from './types.js';

/** The command as it will run: one argv per pipeline stage, and what went into it. */
export interface ResolvedCommand {
  stages: string[][];
  /** References whose value is not known yet (dry run): they appear as `{{context.…}}` in `stages`. */
  unresolved: string[];
  /** Each substitution: the reference and the argument it landed in (1-based stage, 0-based argv index). */
  substitutions: Array<{ reference: string; stage: number; arg: number; known: boolean }>;
}

interface At { stage: number; arg: number }
interface Filler { ctx: TaskContext; opts: ResolveOptions; out: ResolvedCommand }

// Private-use characters: never produced by the tokenizer, refused in a template.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARK_SOURCE = `${OPEN}(\\d+)${CLOSE}`;
const WHOLE = new RegExp(`^${REF_SOURCE}$`);

/** Tokenizes a string command with the references masked, then fills each argument. */
export function resolveCommandString(template: string, ctx: TaskContext, opts: ResolveOptions): ResolvedCommand {
  const f: Filler = { ctx, opts, out: { stages: [], unresolved: [], substitutions: [] } };
  const whole = WHOLE.exec(template.trim());
  if (whole) {
    const argv = wholeArgv(whole[1]!, f);
    if (argv) return done(f.out, [argv]);
  }
  if (template.includes(OPEN) || template.includes(CLOSE)) {
    throw new SubstitutionError('context.template', 'the command contains the private-use characters U+E000/U+E001, which Workbench reserves for templating; remove them');
  }
  const refs: string[] = [];
  const masked = template.replace(new RegExp(REF_SOURCE, 'g'), (_m, ref: string) => `${OPEN}${refs.push(ref) - 1}${CLOSE}`);
  const stages = tokenize(masked).stages.map((argv, s) =>
    argv.map((token, a) => token.replace(new RegExp(MARK_SOURCE, 'g'), (_m, i: string) => fill(refs[Number(i)]!, f, { stage: s + 1, arg: a }))),
  );
  return done(f.out, stages);
}

/** An argv command: each element is one argument; references inside it fill only that argument. */
export function resolveCommandArgv(argv: readonly string[], ctx: TaskContext, opts: ResolveOptions): ResolvedCommand {
  const f: Filler = { ctx, opts, out: { stages: [], unresolved: [], substitutions: [] } };
  const stage = argv.map((element, a) => element.replace(new RegExp(REF_SOURCE, 'g'), (_m, ref: string) => fill(ref, f, { stage: 1, arg: a })));
  return done(f.out, [stage]);
}

/** `command: "{{context.x}}"` where x is an array of strings: that array is the argv, one element per argument. */
function wholeArgv(ref: string, f: Filler): string[] | undefined {
  const r = refValue(ref, f.ctx, f.opts, 'command');
  if (!r.known || !Array.isArray(r.value) || r.value.length === 0 || !r.value.every((v) => typeof v === 'string')) return undefined;
  return (r.value as string[]).map((v, a) => {
    checkArgValue(ref, v, { stage: 1, arg: a });
    f.out.substitutions.push({ reference: `{{context.${ref}}}`, stage: 1, arg: a, known: true });
    return v;
  });
}

/** The text one reference puts into its argument. A whole `stdout` loses one trailing newline (SPEC §3.4). */
function fill(ref: string, f: Filler, at: At): string {
  const r = refValue(ref, f.ctx, f.opts, at.stage > 1 ? `command (stage ${at.stage}, argument ${at.arg})` : `command[${at.arg}]`);
  f.out.substitutions.push({ reference: `{{context.${ref}}}`, ...at, known: r.known });
  if (!r.known) return r.placeholder;
  let text = typeof r.value === 'string' ? r.value : JSON.stringify(r.value) ?? 'null';
  if (typeof r.value === 'string' && /(^|\.)stdout$/.test(ref) && text.endsWith('\n')) text = text.slice(0, -1);
  checkArgValue(ref, text, at);
  return text;
}

function checkArgValue(ref: string, text: string, at: At): void {
  const where = `{{context.${ref}}} (substituted into argument ${at.arg} of stage ${at.stage})`;
  if (text.includes('\0')) throw new SubstitutionError('context.nul', `the value of ${where} contains a NUL byte, which no argument may hold`);
  if (/[\n\r]/.test(text)) {
    throw new SubstitutionError('arg.control_char', `the value of ${where} contains a newline or carriage return (it has several lines); an argument takes one line: save a one-line value, or pass the text through stdin`);
  }
}

function done(out: ResolvedCommand, stages: string[][]): ResolvedCommand {
  out.stages = stages;
  out.unresolved = [...new Set(out.substitutions.filter((x) => !x.known).map((x) => x.reference))];
  return out;
}

// sed in read-only: no in-place edits, and scripts may not use the commands or flags that run a
// program (`e`, `s///e`) or read/write other files (`r R w W`, `s///w`). Unsure → refuse.
//
// Two independent checks must both pass:
//  1. a parser modelled on GNU sed 4.9 (labels end at whitespace, `;` or `}`; regexes may hold the
//     delimiter inside a bracket expression, `s/[/]/x/`), which refuses the dangerous commands, and
//  2. a raw scan: every `e w W r R` in the script must lie inside a span the parser proved to be data
//     (a regex, a replacement, a y/// string, a/i/c text, a comment or a validated label).
// Where GNU and POSIX/BSD sed could read a construct differently (a label followed by more text, a
// delimiter inside brackets, a script chunk ending in a backslash) the script is refused.
import { refuse } from '../denial.js';
import { optionValues, parseOptions, type OptionSpec } from '../options.js';
import type { ArgRule } from './types.js';

const SPEC: OptionSpec = {
  cmd: 'sed',
  shortValue: 'efl',
  longValue: ['expression', 'file', 'line-length'],
  longFlags: ['quiet', 'silent', 'debug', 'posix', 'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'null-data', 'zero-terminated', 'help', 'version', 'follow-symlinks'],
  deniedShort: { i: 'write' },
  deniedLong: { 'in-place': 'write', file: 'read' },
};

/** Options known to be harmless (besides -e/-f/-l, handled by name). */
const KNOWN_SHORT = 'nelErsuz';
const KNOWN_LONG = new Set(['expression', 'line-length', ...(SPEC.longFlags ?? [])]);

const SIMPLE = new Set('=dDgGhHxnNpPzF{}'.split(''));
const LABEL_CHAR = /[A-Za-z0-9_.-]/;
const DANGEROUS = 'ewWrR';

/** Read-only policy for sed. */
export const sedRule: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, SPEC);
  for (const o of parsed.options) {
    if (o.name === 'f') refuse('arg.sed_file', '`sed -f` reads a script the policy cannot check; pass the script with -e');
    const known = o.long ? KNOWN_LONG.has(o.name) : KNOWN_SHORT.includes(o.name);
    if (!known) refuse('arg.sed_option', `\`sed ${o.long ? '--' : '-'}${o.name}\` is not allowed in this profile; use -n, -E, -s, -z, -e SCRIPT`);
  }
  const scripts = optionValues(parsed, 'e', 'expression');
  if (parsed.options.some((o) => (o.name === 'e' || o.name === 'expression') && o.value === undefined)) unsure('-e without a script');
  const files = scripts.length > 0 ? parsed.operands : parsed.operands.slice(1);
  if (scripts.length === 0 && parsed.operands.length > 0) scripts.push(parsed.operands[0]!);
  for (const s of scripts) checkSedScript(s);
  return { reads: files };
};

interface Cursor { s: string; i: number; data: boolean[] }

/** Throws when a sed script uses a command that runs programs or touches other files. */
export function checkSedScript(script: string): void {
  // sed joins -e chunks with newlines: a trailing backslash would continue a construct into the next chunk.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(script)) unsure('a script ending in a backslash');
  if (/[\n\r\0]/.test(script)) unsure('a control character');
  const p: Cursor = { s: script, i: 0, data: new Array<boolean>(script.length).fill(false) };
  while (p.i < script.length) {
    skip(p, ' \t;');
    if (p.i >= script.length) break;
    if (script[p.i] === '#') { markData(p, p.i, script.length); break; }
    address(p);
    if (script[p.i] === ',') { p.i++; address(p); }
    skip(p, ' \t!');
    command(p);
  }
  rawScan(p);
}

/** The independent check: a dangerous letter outside proven data is refused even if the parser missed it. */
function rawScan(p: Cursor): void {
  for (let k = 0; k < p.s.length; k++) {
    if (!p.data[k] && DANGEROUS.includes(p.s[k]!)) unsure(`\`${p.s[k]}\` at position ${k + 1} may be a command`);
  }
}

function command(p: Cursor): void {
  const c = p.s[p.i++];
  if (c === undefined) unsure('an address without a command');
  if (SIMPLE.has(c)) return;
  if ('lqQL'.includes(c)) return skip(p, '0123456789 \t');
  if (':btTv'.includes(c)) return label(p, c);
  if ('aic'.includes(c)) { markData(p, p.i, p.s.length); p.i = p.s.length; return; }
  if (c === 's') return substitute(p);
  if (c === 'y') { const d = delimiter(p); regexPart(p, d); regexPart(p, d); return; }
  if (c === 'e') refuse('arg.sed_exec', 'the sed `e` command runs a shell command; it is refused in this profile');
  if (c === 'w' || c === 'W') refuse('arg.sed_write', `the sed \`${c}\` command writes a file; it is refused in this profile`);
  if (c === 'r' || c === 'R') refuse('arg.sed_read', `the sed \`${c}\` command reads a file the policy cannot check; it is refused in this profile`);
  unsure(`unknown command \`${c}\``);
}

/**
 * GNU sed reads a label (and v's version) after optional blanks up to whitespace, `;` or `}`; POSIX
 * sed reads it to the end of the line. Only a plain name followed by nothing, `;` or `}` means the same in both.
 */
function label(p: Cursor, c: string): void {
  skip(p, ' \t');
  const start = p.i;
  while (p.i < p.s.length && !' \t;}'.includes(p.s[p.i]!)) {
    if (!LABEL_CHAR.test(p.s[p.i]!)) unsure(`the label of \`${c}\` has the character \`${p.s[p.i]}\``);
    p.i++;
  }
  if (c === ':' && p.i === start) unsure('`:` without a label');
  markData(p, start, p.i);
  skip(p, ' \t');
  if (p.i < p.s.length && !';}'.includes(p.s[p.i]!)) unsure(`text after the label of \`${c}\` (end a label with \`;\`)`);
}

function substitute(p: Cursor): void {
  const d = delimiter(p);
  regexPart(p, d);
  plainPart(p, d);
  while (p.i < p.s.length) {
    const f = p.s[p.i]!;
    if (f === ';' || f === '}') return;
    if (f === 'e') refuse('arg.sed_exec', 'the sed `s///e` flag runs the pattern space as a shell command; it is refused in this profile');
    if (f === 'w' || f === 'W') refuse('arg.sed_write', 'the sed `s///w` flag writes a file; it is refused in this profile');
    if (!'gpiImM0123456789 \t'.includes(f)) unsure(`unknown s flag \`${f}\``);
    p.i++;
  }
}

function address(p: Cursor): void {
  const c = p.s[p.i];
  if (c === undefined) return;
  if (c === '/' || c === '\\') {
    const d = c === '/' ? '/' : p.s[++p.i];
    if (d === undefined || d === '\\') unsure('an unterminated address');
    p.i++;
    regexPart(p, d);
    skip(p, 'IM');
  } else if (c === '$') p.i++;
  else skip(p, '0123456789~+');
}

function delimiter(p: Cursor): string {
  const d = p.s[p.i++];
  if (d === undefined || d === '\\' || d === ' ' || d === '\t') unsure('a missing or unusual delimiter');
  return d;
}

/** A regex (or y/// string): its end must be the same whether or not `[...]` hides the delimiter. */
function regexPart(p: Cursor, d: string): void {
  const plain = scanPart(p.s, p.i, d, 'plain');
  const bracketEsc = scanPart(p.s, p.i, d, 'bracket-escape');
  const bracketLit = scanPart(p.s, p.i, d, 'bracket-literal');
  if (plain < 0 || bracketEsc < 0 || bracketLit < 0) unsure('an unterminated expression');
  if (plain !== bracketEsc || plain !== bracketLit) unsure(`the delimiter \`${d}\` inside a bracket expression (escape it or use another delimiter)`);
  markData(p, p.i, plain);
  p.i = plain;
}

/** A replacement: GNU sed ends it at the first unescaped delimiter. */
function plainPart(p: Cursor, d: string): void {
  const end = scanPart(p.s, p.i, d, 'plain');
  if (end < 0) unsure('an unterminated expression');
  markData(p, p.i, end);
  p.i = end;
}

/** Index just past the closing delimiter, or -1. */
function scanPart(s: string, start: number, d: string, mode: 'plain' | 'bracket-escape' | 'bracket-literal'): number {
  let inBracket = false;
  let first = 0;
  for (let i = start; i < s.length; i++) {
    const ch = s[i]!;
    if (inBracket) {
      if (mode === 'bracket-escape' && ch === '\\') { i++; continue; }
      if (ch === '[' && ':.='.includes(s[i + 1] ?? 'x')) {
        const close = s.indexOf(`${s[i + 1]}]`, i + 2);
        if (close < 0) return -1;
        i = close + 1;
        continue;
      }
      if (ch === ']' && i > first) inBracket = false;
      continue;
    }
    if (ch === '\\') { i++; continue; }
    if (ch === d) return i + 1;
    if (mode !== 'plain' && ch === '[') {
      inBracket = true;
      first = i + 1 + (s[i + 1] === '^' ? 1 : 0);
      i = first - 1;
    }
  }
  return -1;
}

function markData(p: Cursor, from: number, to: number): void {
  for (let k = from; k < to; k++) p.data[k] = true;
}

function skip(p: Cursor, chars: string): void {
  while (p.i < p.s.length && chars.includes(p.s[p.i]!)) p.i++;
}

function unsure(what: string): never {
  refuse('arg.sed_script', `the sed script could not be checked (${what}); simplify it or use grep/awk`);
}

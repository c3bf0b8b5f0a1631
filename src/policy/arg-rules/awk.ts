// awk in read-only: only -F/-v and an inline program; the program may not call system(), use
// pipes (`| getline`, `print | cmd`), redirect print output, read files with `getline <`, use
// ENVIRON / ARGV / gawk's @-directives. Unsure → refuse.
//
// Two independent checks must both pass:
//  1. a lexer that follows awk's grammar; where `/` could be a regex or a division (after `)`,
//     `++`, `--`, `getline`), it checks BOTH readings, so a regex cannot hide code from it and code
//     cannot hide inside a bogus regex or string; and
//  2. a raw scan of the text for the dangerous tokens, which tolerates one only inside a span that
//     every reading of the lexer saw as a string or a regex.
import { refuse } from '../denial.js';
import type { ArgRule } from './types.js';

const FLAGS = new Set(['--version', '-W version', '--posix', '--traditional', '--sandbox', '-S', '--re-interval', '-b', '--characters-as-bytes']);
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Read-only policy for awk, gawk, mawk and nawk. */
export const awkRule: ArgRule = ({ cmd, args }) => {
  const programs: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { i++; break; }
    if (a === '-' || !a.startsWith('-')) break;
    if (a === '-F' || a === '-v') i++;
    else if (a.startsWith('-F') || a.startsWith('-v') || a.startsWith('--field-separator=') || a.startsWith('--assign=')) continue;
    else if (a === '-e' || a === '--source') programs.push(args[++i] ?? '');
    else if (a.startsWith('--source=')) programs.push(a.slice(9));
    else if (a === '-W' && args[i + 1] === 'version') i++;
    else if (a === '-f' || a.startsWith('-f') || a.startsWith('--file')) refuse(`arg.${cmd}_file`, `\`${cmd} -f\` runs a program file the policy cannot check; pass the program inline`);
    else if (!FLAGS.has(a)) refuse(`arg.${cmd}_option`, `\`${cmd} ${a}\` is not allowed in this profile; use -F, -v and an inline program`);
  }
  const rest = args.slice(i);
  if (programs.length === 0 && rest.length > 0) programs.push(rest.shift()!);
  for (const p of programs) checkAwkProgram(p, cmd);
  return { reads: rest.filter((a) => !ASSIGN.test(a)) };
};

/** What the previous token lets a `/` be: a regex, a division, or either. */
type Slash = 'regex' | 'div' | 'either';

interface Lex { s: string; i: number; depth: number; printDepth: number; getline: boolean; slash: Slash; data: Uint8Array }

/** After these words an operand is expected, so `/` starts a regex (or is a syntax error). */
const REGEX_AFTER_WORD = new Set(['print', 'printf', 'return', 'exit', 'case', 'in', 'do', 'else', 'delete', 'if', 'while', 'for', 'switch', 'function', 'func']);
/** `getline / 2` is a division, `getline /x/`... is ambiguous across awks: check both. */
const EITHER_AFTER_WORD = new Set(['getline']);
const MAX_FORKS = 8;

/** Throws when an awk program can run programs, write files or read unchecked files. */
export function checkAwkProgram(s: string, cmd = 'awk'): void {
  if (/[\n\r\0]/.test(s)) refuse('arg.awk_program', 'the awk program contains a control character; pass it on one line');
  const start: Lex = { s, i: 0, depth: 0, printDepth: -1, getline: false, slash: 'regex', data: new Uint8Array(s.length) };
  const forks = { n: 0 };
  // data[k] = 1 only where every reading saw a string or regex.
  const common = new Uint8Array(s.length).fill(1);
  for (const end of lexAll(start, cmd, forks)) for (let k = 0; k < s.length; k++) common[k]! &= end.data[k]!;
  rawScan(s, common, cmd);
}

/** Lexes to the end, forking at ambiguous slashes; returns the final state of every reading. */
function lexAll(x: Lex, cmd: string, forks: { n: number }): Lex[] {
  const ends: Lex[] = [];
  const s = x.s;
  while (x.i < s.length) {
    const c = s[x.i]!;
    if (c === ' ' || c === '\t') x.i++;
    else if (c === '#') { mark(x, x.i, s.length); x.i = s.length; }
    else if (c === '"') { const from = x.i; skipString(x); mark(x, from, x.i); x.slash = 'div'; }
    else if (c === '/' && x.slash !== 'div') {
      if (x.slash === 'either') {
        if (++forks.n > MAX_FORKS) refuse('arg.awk_program', 'the awk program has too many ambiguous `/` (regex or division?); add parentheses or spaces');
        const div: Lex = { ...x, data: x.data.slice() };
        div.i++;
        div.slash = 'regex';
        ends.push(...lexAll(div, cmd, forks));
        if (!regexTerminates(x)) return ends;
      }
      const from = x.i;
      skipRegex(x);
      mark(x, from, x.i);
      x.slash = 'div';
    } else if (isIdentStart(c)) word(x, cmd);
    else if (c >= '0' && c <= '9' || (c === '.' && /[0-9]/.test(s[x.i + 1] ?? ''))) number(x);
    else punct(x, c, cmd);
  }
  ends.push(x);
  return ends;
}

function mark(x: Lex, from: number, to: number): void {
  x.data.fill(1, from, to);
}

function word(x: Lex, cmd: string): void {
  const start = x.i;
  while (x.i < x.s.length && isIdentPart(x.s[x.i]!)) x.i++;
  const w = x.s.slice(start, x.i);
  if (w === 'system') refuse(`arg.${cmd}_system`, `awk \`system()\` runs a shell command; it is refused in this profile`);
  if (w === 'ENVIRON') refuse(`arg.${cmd}_environ`, 'awk `ENVIRON` reads the environment; it is refused in this profile');
  if (w === 'ARGV') refuse(`arg.${cmd}_argv`, 'awk `ARGV` can name files the policy never checked; pass files as operands');
  if (w === 'print' || w === 'printf') x.printDepth = x.depth;
  if (w === 'getline') x.getline = true;
  x.slash = REGEX_AFTER_WORD.has(w) ? 'regex' : EITHER_AFTER_WORD.has(w) ? 'either' : 'div';
}

function number(x: Lex): void {
  while (x.i < x.s.length && /[0-9A-Za-z_.]/.test(x.s[x.i]!)) {
    const c = x.s[x.i]!;
    x.i++;
    if ((c === 'e' || c === 'E') && (x.s[x.i] === '+' || x.s[x.i] === '-')) x.i++;
  }
  x.slash = 'div';
}

function punct(x: Lex, c: string, cmd: string): void {
  const next = x.s[x.i + 1];
  x.i++;
  x.slash = 'regex';
  if (c === '|') {
    if (next !== '|') refuse(`arg.${cmd}_pipe`, 'an awk pipe (`| getline`, `print | "cmd"`) runs a shell command; it is refused in this profile');
    x.i++;
  } else if (c === '@') {
    refuse(`arg.${cmd}_directive`, 'awk `@` directives and indirect calls are refused in this profile');
  } else if (c === '>' && x.printDepth === x.depth && x.printDepth >= 0) {
    refuse(`arg.${cmd}_redirect`, 'awk output redirection (`print > file`) writes a file; it is refused in this profile (wrap comparisons in parentheses)');
  } else if (c === '<' && x.getline) {
    refuse(`arg.${cmd}_getline_file`, '`getline < file` reads a file the policy cannot check; pass the file as an operand');
  } else if (c === '(') x.depth++;
  else if (c === ')') { x.depth--; x.slash = 'either'; }
  else if (c === ';' || c === '{' || c === '}') { x.printDepth = -1; x.getline = false; }
  else if (c === ']') x.slash = 'div';
  else if ((c === '+' || c === '-') && next === c) { x.i++; x.slash = 'either'; }
}

function skipString(x: Lex): void {
  for (x.i++; x.i < x.s.length; x.i++) {
    const c = x.s[x.i];
    if (c === '\\') x.i++;
    else if (c === '"') { x.i++; return; }
  }
  refuse('arg.awk_program', 'the awk program has an unterminated string; fix the quoting');
}

/** Index just past the regex starting at i (`/.../`), or -1. */
function regexEnd(s: string, i: number): number {
  let inClass = false;
  for (i++; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1;
  }
  return -1;
}

function regexTerminates(x: Lex): boolean {
  return regexEnd(x.s, x.i) >= 0;
}

function skipRegex(x: Lex): void {
  const end = regexEnd(x.s, x.i);
  if (end < 0) refuse('arg.awk_program', 'the awk program has an unterminated regular expression; fix the quoting');
  x.i = end;
}

/**
 * The independent check on the raw text: dangerous tokens are refused unless every reading of the
 * lexer put them inside a string or regex.
 */
function rawScan(s: string, data: Uint8Array, cmd: string): void {
  let code = '';
  for (let k = 0; k < s.length; k++) code += data[k] ? ' ' : s[k];
  const bad = (rule: string, what: string): never => refuse(`arg.${cmd}_${rule}`, `the awk program ${what}; it is refused in this profile`);
  if (/\bsystem\b/.test(code)) bad('system', 'calls `system()`, which runs a shell command');
  if (/\b(?:ENVIRON|PROCINFO)\b/.test(code)) bad('environ', 'reads ENVIRON/PROCINFO');
  if (/\bARGV\b/.test(code)) bad('argv', 'uses ARGV, which can name files the policy never checked');
  if (code.includes('@')) bad('directive', 'uses an `@` directive or indirect call');
  if (/(?<!\|)\|(?!\|)/.test(code.replaceAll('||', '  '))) bad('pipe', 'uses a pipe (`|`, `|&`), which runs a shell command');
  if (/\bgetline\b/.test(code) && code.includes('<')) bad('getline_file', 'combines `getline` with `<`, which reads a file the policy cannot check');
  for (const stmt of code.split(/[;{}]/)) {
    const m = /\bprintf?\b/.exec(stmt);
    if (!m) continue;
    let depth = 0;
    for (const ch of stmt.slice(m.index)) {
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === '>' && depth <= 0) bad('redirect', 'redirects print output (`print > file`) (wrap comparisons in parentheses)');
    }
  }
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

// awk in read-only: only -F/-v and an inline program; the program may not call system(), use
// pipes (`| getline`, `print | cmd`), redirect print output, read files with `getline <`, or use
// ENVIRON / gawk's @-directives. Unsure → refuse.
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

interface Lex { s: string; i: number; depth: number; printDepth: number; getline: boolean; regexOk: boolean }

const KEYWORDS_BEFORE_EXPR = new Set(['print', 'printf', 'return', 'in', 'case', 'if', 'while', 'do', 'else', 'getline']);

/** Throws when an awk program can run programs, write files or read unchecked files. */
export function checkAwkProgram(s: string, cmd = 'awk'): void {
  const x: Lex = { s, i: 0, depth: 0, printDepth: -1, getline: false, regexOk: true };
  while (x.i < s.length) {
    const c = s[x.i]!;
    if (c === ' ' || c === '\t') x.i++;
    else if (c === '#') return;
    else if (c === '"') { skipString(x); x.regexOk = false; }
    else if (c === '/' && x.regexOk) { skipRegex(x); x.regexOk = false; }
    else if (isIdentStart(c)) word(x, cmd);
    else punct(x, c, cmd);
  }
}

function word(x: Lex, cmd: string): void {
  const start = x.i;
  while (x.i < x.s.length && isIdentPart(x.s[x.i]!)) x.i++;
  const w = x.s.slice(start, x.i);
  if (w === 'system') refuse(`arg.${cmd}_system`, `awk \`system()\` runs a shell command; it is refused in this profile`);
  if (w === 'ENVIRON') refuse(`arg.${cmd}_environ`, 'awk `ENVIRON` reads the environment; it is refused in this profile');
  if (w === 'print' || w === 'printf') x.printDepth = x.depth;
  if (w === 'getline') x.getline = true;
  x.regexOk = KEYWORDS_BEFORE_EXPR.has(w);
}

function punct(x: Lex, c: string, cmd: string): void {
  const next = x.s[x.i + 1];
  x.i++;
  x.regexOk = true;
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
  else if (c === ')') { x.depth--; x.regexOk = false; }
  else if (c === ';' || c === '{' || c === '}') { x.printDepth = -1; x.getline = false; }
  else if (c === ']' || (c >= '0' && c <= '9') || c === '.' || c === '$') x.regexOk = c === '$';
}

function skipString(x: Lex): void {
  for (x.i++; x.i < x.s.length; x.i++) {
    const c = x.s[x.i];
    if (c === '\\') x.i++;
    else if (c === '"') { x.i++; return; }
  }
  refuse('arg.awk_program', 'the awk program has an unterminated string; fix the quoting');
}

function skipRegex(x: Lex): void {
  let inClass = false;
  for (x.i++; x.i < x.s.length; x.i++) {
    const c = x.s[x.i];
    if (c === '\\') x.i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) { x.i++; return; }
  }
  refuse('arg.awk_program', 'the awk program has an unterminated regular expression; fix the quoting');
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

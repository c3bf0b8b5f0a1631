// sed in read-only: no in-place edits, and scripts may not use the commands or flags that run a
// program (`e`, `s///e`) or read/write other files (`r R w W`, `s///w`). Unsure → refuse.
import { refuse } from '../denial.js';
import { optionValues, parseOptions } from '../options.js';
import type { ArgRule } from './types.js';

const SPEC = {
  cmd: 'sed',
  shortValue: 'efl',
  longValue: ['expression', 'file', 'line-length'],
  deniedShort: { i: 'write' },
  deniedLong: { 'in-place': 'write', file: 'read' },
} as const;

const SIMPLE = new Set('=dDgGhHxnNpPzF{}'.split(''));

/** Read-only policy for sed. */
export const sedRule: ArgRule = ({ args }) => {
  const parsed = parseOptions(args, SPEC);
  if (parsed.options.some((o) => o.name === 'f')) refuse('arg.sed_file', '`sed -f` reads a script the policy cannot check; pass the script with -e');
  const scripts = optionValues(parsed, 'e', 'expression');
  const files = scripts.length > 0 ? parsed.operands : parsed.operands.slice(1);
  if (scripts.length === 0 && parsed.operands.length > 0) scripts.push(parsed.operands[0]!);
  for (const s of scripts) checkSedScript(s);
  return { reads: files };
};

/** Throws when a sed script uses a command that runs programs or touches other files. */
export function checkSedScript(script: string): void {
  const p = { s: script, i: 0 };
  while (p.i < script.length) {
    skip(p, ' \t;');
    if (p.i >= script.length) return;
    if (script[p.i] === '#') return;
    address(p);
    if (script[p.i] === ',') { p.i++; address(p); }
    skip(p, ' \t!');
    command(p);
  }
}

interface Cursor { s: string; i: number }

function command(p: Cursor): void {
  const c = p.s[p.i++];
  if (c === undefined) unsure('an address without a command');
  if (SIMPLE.has(c)) return;
  if ('lqQL'.includes(c)) return skip(p, '0123456789 ');
  if (':btTv'.includes(c)) return toEnd(p, ';}');
  if ('aic'.includes(c)) { p.i = p.s.length; return; }
  if (c === 's') return substitute(p);
  if (c === 'y') { const d = delimiter(p); part(p, d); part(p, d); return; }
  if (c === 'e') refuse('arg.sed_exec', 'the sed `e` command runs a shell command; it is refused in this profile');
  if (c === 'w' || c === 'W') refuse('arg.sed_write', `the sed \`${c}\` command writes a file; it is refused in this profile`);
  if (c === 'r' || c === 'R') refuse('arg.sed_read', `the sed \`${c}\` command reads a file the policy cannot check; it is refused in this profile`);
  unsure(`unknown command \`${c}\``);
}

function substitute(p: Cursor): void {
  const d = delimiter(p);
  part(p, d);
  part(p, d);
  while (p.i < p.s.length) {
    const f = p.s[p.i]!;
    if (f === ';' || f === '}') return;
    if (f === 'e') refuse('arg.sed_exec', 'the sed `s///e` flag runs the pattern space as a shell command; it is refused in this profile');
    if (f === 'w') refuse('arg.sed_write', 'the sed `s///w` flag writes a file; it is refused in this profile');
    if (!'gpiImM0123456789 \t'.includes(f)) unsure(`unknown s flag \`${f}\``);
    p.i++;
  }
}

function address(p: Cursor): void {
  const c = p.s[p.i];
  if (c === undefined) return;
  if (c === '/' || c === '\\') {
    const d = c === '/' ? '/' : p.s[++p.i];
    if (d === undefined) unsure('an unterminated address');
    p.i++;
    part(p, d);
    skip(p, 'IM');
  } else if (c === '$') p.i++;
  else skip(p, '0123456789~+');
}

function delimiter(p: Cursor): string {
  const d = p.s[p.i++];
  if (d === undefined || d === '\\') unsure('a missing delimiter');
  return d;
}

/** Skips one delimited part (regex or replacement), honouring backslash escapes. */
function part(p: Cursor, d: string): void {
  for (; p.i < p.s.length; p.i++) {
    const c = p.s[p.i];
    if (c === '\\') p.i++;
    else if (c === d) { p.i++; return; }
  }
  unsure('an unterminated expression');
}

function skip(p: Cursor, chars: string): void {
  while (p.i < p.s.length && chars.includes(p.s[p.i]!)) p.i++;
}

function toEnd(p: Cursor, stops: string): void {
  while (p.i < p.s.length && !stops.includes(p.s[p.i]!)) p.i++;
}

function unsure(what: string): never {
  refuse('arg.sed_script', `the sed script could not be checked (${what}); simplify it or use grep/awk`);
}

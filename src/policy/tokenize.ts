// Splits a command string into pipeline stages with POSIX quoting rules, without ever running a
// shell: every construct a shell would interpret (other than quoting and `|`) is refused.
import { PolicyDenial, refuse } from './denial.js';

const HINT = 'Workbench runs no shell: send the argv form, separate calls, or shell:true where the profile allows it';

const DESCRIBE: Record<string, string> = {
  ';': '`;` (command separator)',
  '&&': '`&&` (conditional command list)',
  '||': '`||` (conditional command list)',
  '&': '`&` (background job)',
  '|&': '`|&` (pipe of stdout and stderr)',
  '(': '`(` (subshell or grouping)',
  ')': '`)` (subshell or grouping)',
  '`': 'a backtick (command substitution)',
  '$(': '`$(…)` (command substitution)',
  '${': '`${…}` (parameter expansion)',
  '$': '`$NAME` (variable expansion)',
  "$'": "`$'…'` (ANSI-C quoting)",
  '$"': '`$"…"` (locale quoting)',
  '<': '`<` (input redirection)',
  '<<': '`<<` (here-document)',
  '<(': '`<(…)` (process substitution)',
  '>': '`>` (output redirection)',
  '>>': '`>>` (appending redirection)',
  '>&': '`>&` (descriptor redirection such as 2>&1)',
  '*': '`*` (unquoted glob)',
  '?': '`?` (unquoted glob)',
  '[': '`[…]` (unquoted glob)',
  '{': '`{a,b}` (brace expansion)',
  '~': 'a leading `~` (tilde expansion)',
  '#': '`#` (comment)',
  '\n': 'a newline (command separator)',
  '\r': 'a carriage return',
  '\0': 'a NUL byte',
  '=': 'a leading `NAME=value` (variable assignment)',
  '||stage': 'an empty pipeline stage',
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const VAR_START = /[A-Za-z0-9_{('"@*#?$!-]/;

/** Throws `shell.metachar` naming the construct. */
export function refuseConstruct(key: string, where = ''): never {
  const what = DESCRIBE[key] ?? `\`${key}\``;
  refuse('shell.metachar', `${what}${where} is a shell construct; ${HINT}. Quote it to pass it as data.`);
}

/** Result of tokenizing: one argv per pipeline stage. */
export interface Tokenized {
  stages: string[][];
}

/** Parses `command` into pipeline stages; throws PolicyDenial (`shell.metachar`/`shell.syntax`). */
export function tokenize(command: string): Tokenized {
  const t = new Scanner(command);
  t.run();
  return { stages: t.finish() };
}

class Scanner {
  private i = 0;
  private word = '';
  private inWord = false;
  private stage: string[] = [];
  private readonly stages: string[][] = [];

  constructor(private readonly s: string) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === ' ' || c === '\t') this.endWord();
      else if (c === "'") this.single();
      else if (c === '"') this.double();
      else if (c === '\\') this.escape();
      else if (c === '|') this.pipe();
      else this.plain(c);
      this.i++;
    }
  }

  finish(): string[][] {
    this.endWord();
    if (this.stage.length === 0) {
      if (this.stages.length === 0) throw new PolicyDenial('cmd.empty', 'command is empty; send a program name and its arguments', 'invalid_params');
      refuseConstruct('||stage', ' (a trailing `|`)');
    }
    this.stages.push(this.stage);
    return this.stages;
  }

  private endWord(): void {
    if (!this.inWord) return;
    if (this.stage.length === 0 && ASSIGNMENT.test(this.word) && !this.quotedAssign) refuseConstruct('=', '; pass variables in `env`');
    this.stage.push(this.word);
    this.word = '';
    this.inWord = false;
    this.quotedAssign = false;
  }

  private quotedAssign = false;

  private single(): void {
    const end = this.s.indexOf("'", this.i + 1);
    if (end < 0) refuse('shell.syntax', 'unterminated single quote; close every quote');
    const text = this.s.slice(this.i + 1, end);
    checkControl(text);
    if (this.word === '' && !this.inWord) this.quotedAssign = true;
    this.word += text;
    this.inWord = true;
    this.i = end;
  }

  private double(): void {
    const s = this.s;
    if (this.word === '' && !this.inWord) this.quotedAssign = true;
    for (let j = this.i + 1; j < s.length; j++) {
      const c = s[j]!;
      if (c === '"') {
        this.inWord = true;
        this.i = j;
        return;
      }
      if (c === '$') refuseConstruct(dollarKey(s, j), ' inside double quotes (it still expands there; use single quotes)');
      if (c === '`') refuseConstruct('`', ' inside double quotes');
      if (c === '\0' || c === '\n' || c === '\r') refuseControl(c);
      if (c === '\\' && j + 1 < s.length && '$`"\\'.includes(s[j + 1]!)) {
        this.word += s[++j];
        continue;
      }
      this.word += c;
    }
    refuse('shell.syntax', 'unterminated double quote; close every quote');
  }

  private escape(): void {
    const next = this.s[this.i + 1];
    if (next === undefined) refuse('shell.syntax', 'trailing backslash; escape a character or remove it');
    if (next === '\n' || next === '\r' || next === '\0') refuseConstruct(next);
    this.word += next;
    this.inWord = true;
    this.i++;
  }

  private pipe(): void {
    const next = this.s[this.i + 1];
    if (next === '|') refuseConstruct('||');
    if (next === '&') refuseConstruct('|&');
    this.endWord();
    if (this.stage.length === 0) refuseConstruct('||stage', ' (`|` with nothing before it)');
    this.stages.push(this.stage);
    this.stage = [];
  }

  private plain(c: string): void {
    const s = this.s;
    const next = s[this.i + 1];
    const atStart = !this.inWord;
    switch (c) {
      case ';': case '(': case ')': case '`': case '\n': case '\r': case '\0': case '*': case '?':
        refuseConstruct(c);
      case '&':
        refuseConstruct(next === '&' ? '&&' : '&');
      case '<':
        refuseConstruct(next === '<' ? '<<' : next === '(' ? '<(' : '<');
      case '>':
        refuseConstruct(next === '>' ? '>>' : next === '&' ? '>&' : '>');
      case '$':
        if (next !== undefined && VAR_START.test(next)) refuseConstruct(dollarKey(s, this.i));
        break;
      case '[':
        if (globBracket(s, this.i)) refuseConstruct('[');
        break;
      case '{':
        if (braceExpansion(s, this.i)) refuseConstruct('{');
        break;
      case '~':
      case '#':
        if (atStart) refuseConstruct(c);
        break;
    }
    this.word += c;
    this.inWord = true;
  }
}

function dollarKey(s: string, i: number): string {
  const n = s[i + 1];
  if (n === '(' || n === '{' || n === "'" || n === '"') return '$' + n;
  return '$';
}

/** A `[` starts a glob when a `]` closes it within the same unquoted word. */
function globBracket(s: string, i: number): boolean {
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (c === ']') return j > i + 1;
    if (c === ' ' || c === '\t' || c === '|' || c === "'" || c === '"') return false;
  }
  return false;
}

/** `{a,b}` or `{1..3}` within one unquoted word. */
function braceExpansion(s: string, i: number): boolean {
  let sep = false;
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]!;
    if (c === '}') return sep;
    if (c === ',' || (c === '.' && s[j + 1] === '.')) sep = true;
    if (c === ' ' || c === '\t' || c === '|' || c === "'" || c === '"' || c === '{') return false;
  }
  return false;
}

function checkControl(text: string): void {
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (c === '\n' || c === '\r' || c === '\0') refuseControl(c);
  }
}

function refuseControl(c: string): never {
  refuse('arg.control_char', `${DESCRIBE[c]} inside an argument is refused; pass one line per argument`);
}

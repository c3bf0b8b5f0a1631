// Lenient reading of shell text for the denylist (shell:true and `sh -c`): splits it into simple
// commands at every separator a shell knows, so `echo; rm -rf /` and `$(rm -rf /)` are both seen.

/** `:(){ :|:& };:` and its renamed forms, `fork while fork`, `while True: os.fork()`. */
export const FORK_BOMBS: readonly RegExp[] = [
  /(?<![\w:.-])([A-Za-z_:.][\w:.-]*)\s*\(\s*\)\s*\{[^}]*?(?<![\w:.-])\1\s*\|\s*\1(?![\w:.-])/,
  /\bfork\b[^;]*\bwhile\b[^;]*\bfork\b/,
  /while\s*(?:\(\s*)?(?:True|1|true)\s*\)?\s*[:{]?\s*(?:do\s+)?[^;]*\bfork\s*\(/,
];

const FETCH = String.raw`\b(?:curl|wget|fetch|aria2c|lwp-request|xh)\b`;
const RUNNER = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:\S*\/)?(?:(?:ba|z|da|k|mk|fi|c|tc|a|yas)?sh|python[\d.]*|perl|ruby|node|php|lua)\b`;

/** A download piped into, substituted into, or sourced by a shell or interpreter. */
export const FETCH_AND_RUN: readonly RegExp[] = [
  new RegExp(`${FETCH}[^;&\\n]*\\|\\s*${RUNNER}`),
  new RegExp(`${RUNNER}[^|;&\\n]*(?:\\$\\(|\`|<\\()\\s*${FETCH}`),
  new RegExp(`(?:\\bsource|(?:^|[;&|]\\s*)\\.|\\beval)\\s+["']?(?:\\$\\(|\`|<\\()\\s*${FETCH}`),
];

/** Output redirected onto a block device. */
export const RAW_DISK_REDIRECT = /[^<>]>{1,2}\s*\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|disk\/)/;

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'in', 'case', 'esac', '!', '{', '}', 'time', 'function', 'select', 'coproc', '[[', ']]']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Splits shell text into pipelines of simple commands (argv lists). Never throws. */
export function splitShellText(text: string): string[][][] {
  const s = new LenientSplitter(text);
  s.run();
  return s.out;
}

class LenientSplitter {
  readonly out: string[][][] = [];
  private pipeline: string[][] = [];
  private stage: string[] = [];
  private word = '';
  private inWord = false;
  private redirect = false;

  constructor(private readonly text: string) {}

  run(): void {
    const text = this.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === "'") i = this.quoted(i, text.indexOf("'", i + 1), false);
      else if (c === '"') i = this.quoted(i, closingQuote(text, i), true);
      else if (c === '\\') this.add(text[++i] ?? '');
      else if (c === ' ' || c === '\t') this.endWord();
      else if (c === '|' && text[i + 1] !== '|') this.endStage();
      else if (';&|\n()`'.includes(c) || (c === '$' && text[i + 1] === '(')) this.endPipeline();
      else if (c === '<' || c === '>') {
        this.endWord();
        this.redirect = true;
        if (text[i + 1] === '&') i++;
      } else this.add(c);
    }
    this.endPipeline();
  }

  /** Adds a quoted part to the word; command substitutions inside double quotes are split too. */
  private quoted(i: number, end: number, double: boolean): number {
    const stop = end < 0 ? this.text.length : end;
    const inner = this.text.slice(i + 1, stop);
    if (double && (inner.includes('$(') || inner.includes('`'))) this.out.push(...splitShellText(inner));
    this.add(double ? inner.replace(/\\(["\\$`])/g, '$1') : inner);
    return stop;
  }

  private add(s: string): void {
    this.word += s;
    this.inWord = true;
  }

  private endWord(): void {
    if (this.inWord && !this.redirect) this.stage.push(this.word);
    if (this.inWord) this.redirect = false;
    this.word = '';
    this.inWord = false;
  }

  private endStage(): void {
    this.endWord();
    const cleaned = clean(this.stage);
    if (cleaned.length > 0) this.pipeline.push(cleaned);
    this.stage = [];
  }

  private endPipeline(): void {
    this.endStage();
    if (this.pipeline.length > 0) this.out.push(this.pipeline);
    this.pipeline = [];
  }
}

function closingQuote(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j;
  }
  return text.length;
}

function clean(stage: string[]): string[] {
  let i = 0;
  while (i < stage.length && (KEYWORDS.has(stage[i]!) || ASSIGNMENT.test(stage[i]!))) i++;
  return i === 0 ? stage : stage.slice(i);
}

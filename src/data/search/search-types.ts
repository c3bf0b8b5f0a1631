// Shared shapes of file_search: arguments, one match, and a collector that builds context windows.
import { AppError } from '../../shared/errors.js';

export interface SearchArgs {
  query: string;
  regex: boolean;
  path: string;
  glob?: string;
  case_sensitive?: boolean;
  context_lines: number;
  max_results: number;
  time_budget_ms: number;
  include_hidden: boolean;
  include_skipped: boolean;
}

export interface SearchMatch {
  path: string;
  line: number;
  column: number;
  text: string;
  before: string[];
  after: string[];
}

export interface EngineResult {
  matches: SearchMatch[];
  truncated: boolean;
  partial: boolean;
  files_scanned?: number;
  /** What could not be applied or checked (an ignore file refused, matches left unverified). */
  notes?: string[];
}

export const MAX_LINE_CHARS = 500;

/** Caps a line for output. */
export function capLine(s: string): string {
  return s.length > MAX_LINE_CHARS ? s.slice(0, MAX_LINE_CHARS) + '…' : s;
}

/** Smart case: insensitive unless the query has an upper-case letter. */
export function ignoreCase(args: SearchArgs): boolean {
  return args.case_sensitive === undefined ? args.query === args.query.toLowerCase() : !args.case_sensitive;
}

/** Compiles the query into a JS RegExp (literal queries are escaped). */
export function compileQuery(args: SearchArgs): RegExp {
  const source = args.regex ? args.query : args.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, ignoreCase(args) ? 'iu' : 'u');
  } catch (err) {
    throw new AppError('invalid_params', `query is not a valid regular expression: ${(err as Error).message}`, { hint: 'pass regex: false to search for the literal text' });
  }
}

/** Builds matches with before/after context from a per-file stream of numbered lines. */
export class ContextCollector {
  private ring: Array<{ n: number; text: string }> = [];
  private open: SearchMatch[] = [];
  constructor(private readonly ctx: number, private readonly out: SearchMatch[]) {}

  /** Starts a new file: context never crosses files. */
  reset(): void {
    this.ring = [];
    this.open = [];
  }

  /** Feeds one line; `column` (1-based) is set when the line matched. */
  line(path: string, n: number, raw: string, column?: number): void {
    const text = capLine(raw);
    for (const m of this.open) if (n > m.line && n <= m.line + this.ctx) m.after.push(text);
    this.open = this.open.filter((m) => n < m.line + this.ctx);
    if (column !== undefined) {
      const before = this.ring.filter((r) => r.n >= n - this.ctx && r.n < n).map((r) => r.text);
      const m: SearchMatch = { path, line: n, column, text, before, after: [] };
      this.out.push(m);
      if (this.ctx > 0) this.open.push(m);
    }
    if (this.ctx > 0) {
      this.ring.push({ n, text });
      if (this.ring.length > this.ctx) this.ring.shift();
    }
  }
}

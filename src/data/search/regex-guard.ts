// The built-in search engine runs JavaScript's backtracking RegExp on the event loop, where one
// `re.exec` cannot be interrupted: `^(a+)+$` on a 29-character line took 24 s (red team F9). Without
// ripgrep (whose engine is linear), regexes that repeat a group which itself repeats — the classic
// catastrophic-backtracking shape — and backreferences are refused before any file is read.
import { AppError } from '../../shared/errors.js';

interface Frame {
  repeats: boolean;
}

/** Throws invalid_params (rule search.regex_backtracking) for nested unbounded repetition or a backreference. */
export function assertBoundedRegex(source: string): void {
  const stack: Frame[] = [{ repeats: false }];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      if (/[1-9k]/.test(source[i + 1] ?? '')) refuse(source, 'a backreference');
      i++;
    } else if (c === '[') {
      i = classEnd(source, i);
    } else if (c === '(') {
      stack.push({ repeats: false });
    } else if (c === ')' && stack.length > 1) {
      const inner = stack.pop()!;
      const q = quantifierAt(source, i + 1);
      if (inner.repeats && q !== null && q !== '?') refuse(source, `a repeated group that itself repeats (${source.slice(0, i + 1 + q.length)})`);
      if (inner.repeats || (q !== null && q !== '?')) stack.at(-1)!.repeats = true;
      if (q !== null) i += q.length;
    } else {
      const q = quantifierAt(source, i);
      if (q !== null && q !== '?') stack.at(-1)!.repeats = true;
    }
  }
}

/** The quantifier starting at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, optionally lazy), or null. */
function quantifierAt(s: string, i: number): string | null {
  const m = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(s.slice(i, i + 24));
  if (!m) return null;
  // `{1}` and `{0,1}` repeat at most once, like `?`.
  return /^\{(?:0,)?1\}\??$|^\?\??$/.test(m[0]) ? '?' : m[0];
}

// Index of the `]` closing the character class opened at `i` (escapes and a leading `]` included).
function classEnd(s: string, i: number): number {
  let j = i + 1;
  if (s[j] === '^') j++;
  if (s[j] === ']') j++;
  for (; j < s.length && s[j] !== ']'; j++) if (s[j] === '\\') j++;
  return j;
}

function refuse(source: string, what: string): never {
  throw new AppError('invalid_params', `the built-in search engine (ripgrep is not installed) refuses ${what} in the regex ${JSON.stringify(source)}: it can take exponential time`, {
    rule: 'search.regex_backtracking',
    hint: 'remove the nested repetition (e.g. (a+)+ → a+), search for a literal with regex: false, or install ripgrep',
  });
}

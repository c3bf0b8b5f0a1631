// A strict parser for git config text (pure). It accepts only the forms `git config` itself writes:
// `[section]`, `[section "subsection"]`, `name`, `name = value` with git's quoting and escapes,
// comments with `#` or `;`. Anything it does not parse with confidence is a failure naming the line,
// so a reader that disagrees with git (key/value split, subsection quoting) can never be exploited.

/** One `section.subsection.name = value` line; section and name lower-cased, subsection as written. */
export interface GitConfigEntry {
  section: string;
  subsection: string | null;
  name: string;
  /** null for a bare `name` (boolean true). */
  value: string | null;
  line: number;
}

export type ParsedGitConfig = { ok: true; entries: GitConfigEntry[] } | { ok: false; line: number; reason: string };

const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const HEADER = /^\[([A-Za-z0-9-]+)(?:[ \t]+"([^"]*)")?\][ \t]*(?:[#;].*)?$/;
const KEY = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*(.*)$/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', b: '\b', '\\': '\\', '"': '"' };

/** Parses config text; the first line it cannot read with confidence fails the whole file. */
export function parseGitConfig(text: string): ParsedGitConfig {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const entries: GitConfigEntry[] = [];
  let section: { name: string; sub: string | null } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (CONTROL.test(raw)) return { ok: false, line: n, reason: 'a control character' };
    const l = raw.replace(/^[ \t]+/, '');
    if (l === '' || l.startsWith('#') || l.startsWith(';')) continue;
    if (l.startsWith('[')) {
      const h = header(l);
      if ('reason' in h) return { ok: false, line: n, reason: h.reason };
      section = h;
      continue;
    }
    if (section === null) return { ok: false, line: n, reason: 'a setting before any [section]' };
    const e = entry(l, section);
    if ('reason' in e) return { ok: false, line: n, reason: e.reason };
    entries.push({ section: section.name, subsection: section.sub, name: e.name, value: e.value, line: n });
  }
  return { ok: true, entries };
}

function header(l: string): { name: string; sub: string | null } | { reason: string } {
  const m = HEADER.exec(l);
  if (!m) return { reason: 'a section header this parser does not accept (only [section] and [section "subsection"] without \\ or " inside)' };
  const sub = m[2] ?? null;
  if (sub !== null && sub.includes('=')) return { reason: `a subsection name containing "=" (${JSON.stringify(sub)})` };
  if (sub !== null && sub.includes('\\')) return { reason: 'a subsection name containing a backslash' };
  return { name: m[1]!.toLowerCase(), sub };
}

function entry(l: string, sec: { name: string; sub: string | null }): { name: string; value: string | null } | { reason: string } {
  const m = KEY.exec(l);
  if (!m) return { reason: 'a setting whose name is not letters, digits and -' };
  const rest = m[2]!;
  if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) return { name: m[1]!.toLowerCase(), value: null };
  if (!rest.startsWith('=')) return { reason: `text after the name ${JSON.stringify(m[1])} that is not "= value"` };
  const v = parseValue(rest.slice(1));
  if (typeof v === 'string') return { name: m[1]!.toLowerCase(), value: v };
  const key = [sec.name, ...(sec.sub === null ? [] : [sec.sub]), m[1]!.toLowerCase()].join('.');
  return { reason: `${v.reason} (setting ${key})` };
}

// Only two value forms are accepted, both with a meaning that is certain: unquoted text (no `"`;
// `\` only as one of git's escapes \n \t \b \\ \"), or one quoted string that is the whole value
// (same escapes), each optionally followed by blanks and a # or ; comment. git's rules for several
// quoted segments, empty quotes and blanks between them are subtle (an empty "" drops the blank
// after it), so any other quoting is refused as unusual, as is a line continuation.
function parseValue(raw: string): string | { reason: string } {
  const s = raw.replace(/^[ \t]+/, '');
  if (!s.startsWith('"')) return unquoted(s);
  const q = quoted(s);
  if (typeof q !== 'string') return q;
  return q === '' ? { reason: 'unusual quoting in a value (empty quotes "")' } : q;
}

function unquoted(s: string): string | { reason: string } {
  let out = '';
  let pending = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '#' || c === ';') break;
    if (c === '"') return { reason: 'unusual quoting in a value (a quote inside unquoted text)' };
    if (c === ' ' || c === '\t') {
      pending += ' '; // git turns each unquoted blank inside a value into a space, and drops trailing ones
      continue;
    }
    const e = c === '\\' ? escaped(s, ++i) : c;
    if (typeof e !== 'string') return e;
    out += pending + e;
    pending = '';
  }
  return out;
}

// One "…" string, then only blanks and an optional comment.
function quoted(s: string): string | { reason: string } {
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      const rest = s.slice(i + 1).replace(/^[ \t]+/, '');
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) return out;
      return { reason: 'unusual quoting in a value (text after the closing quote)' };
    }
    const e = c === '\\' ? escaped(s, ++i) : c;
    if (typeof e !== 'string') return e;
    out += e;
  }
  return { reason: 'an unterminated quote in a value' };
}

function escaped(s: string, i: number): string | { reason: string } {
  const next = s[i];
  if (next === undefined) return { reason: 'a line continuation (trailing backslash)' };
  if (!(next in ESCAPES)) return { reason: `an unknown escape \\${next} in a value` };
  return ESCAPES[next]!;
}

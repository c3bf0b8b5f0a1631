// Human-readable CLI output shows text that others chose (job names, commands, JSON-RPC ids,
// tool names): control characters in it would forge lines or recolour the terminal, so they are
// shown escaped. JSON output is exact JSON with the few characters JSON.stringify leaves raw that a
// terminal still acts on (C1 controls, DEL, line separators, bidi overrides) as \uXXXX escapes.

// C0 and C1 controls, DEL, the Unicode line/paragraph separators and the bidirectional overrides.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e', '\\': '\\\\' };

/** The text with every control character shown as an escape (`\n`, `\e`, `\x07`, `\u202e`); backslashes doubled. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

function hex(c: string, width: number): string {
  return c.charCodeAt(0).toString(16).padStart(width, '0');
}

// The same set less newline, tab and backslash: log text keeps its lines and its own spelling.
const UNSAFE_IN_LOG = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Log text for a terminal: control characters escaped as in escapeControl, newlines and tabs kept. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE_IN_LOG, (c) => NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

// What JSON.stringify leaves raw (it escapes only C0, `"` and `\\`): these occur only inside strings.
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify whose output a terminal cannot act on: every character it leaves raw but a terminal interprets becomes \uXXXX (same value once parsed). */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(JSON_UNSAFE, (c) => `\\u${hex(c, 4)}`);
}

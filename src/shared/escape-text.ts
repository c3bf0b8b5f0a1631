// Human-readable CLI output shows text that others chose (job names, commands, JSON-RPC ids,
// tool names): control characters in it would forge lines or recolour the terminal, so they are
// shown escaped. JSON output needs none of this (JSON.stringify escapes them already).

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

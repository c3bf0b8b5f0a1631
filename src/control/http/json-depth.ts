// How deeply a JSON text nests, measured on the text itself (no recursion, no parse), so a body
// nested thousands of levels deep is refused before anything walks it.

/** Bodies nesting deeper than this are answered 400 on every route (SPEC §4.1). */
export const MAX_JSON_DEPTH = 64;

/** True when `text` opens more than `max` arrays/objects at once (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

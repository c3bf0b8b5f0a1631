// Finds the JSON-RPC id of a message too large to parse, from a piece of its start or its end.
// Cheap and conservative: an id it cannot tell for certain is null.

const ID_VALUE = /^\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt])*")/;
const TAIL_ID = /[,{]\s*"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt])*")\s*\}\s*\r?$/;

/** The top-level `id` of a JSON object from its first bytes, else from its last bytes, else null. */
export function scanJsonRpcId(head: string, tail: string): string | number | null {
  const fromHead = scanHead(head.trimStart());
  if (fromHead !== undefined) return fromHead;
  const m = TAIL_ID.exec(tail);
  return m ? parseId(m[1]!) : null;
}

/** Walks the start of the text keeping depth and string state; only a key `"id"` at depth 1 counts. */
function scanHead(s: string): string | number | null | undefined {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      const end = stringEnd(s, i);
      if (end < 0) return undefined;
      if (depth === 1 && s.slice(i, end + 1) === '"id"') {
        const m = ID_VALUE.exec(s.slice(end + 1, end + 200));
        if (m) return parseId(m[1]!);
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (depth <= 0 && i > 0) return undefined;
  }
  return undefined;
}

function stringEnd(s: string, start: number): number {
  for (let j = start + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '"') return j;
  }
  return -1;
}

function parseId(raw: string): string | number | null {
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

// ripgrep walks the tree by path in its own process, so a directory swapped for a symlink mid-search
// can make it read (and report) files outside the root. Its matches are only returned after the same
// lines are re-read through a descriptor verified to be <root>/<path> (open-checked.ts). The re-read
// is asynchronous (a match on the last line of a huge file must not hold the event loop) and bounded
// by a deadline: files not verified by then are dropped, and the caller is told how many.
import { closeSync, read } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { openFileVerifiedSync } from '../open-checked.js';
import { capLine, type SearchMatch } from './search-types.js';

const CHUNK = 256 * 1024;
const readAsync = promisify(read);

export interface Verified {
  matches: SearchMatch[];
  /** Files whose matches were dropped because the deadline came before they were re-read. */
  unverifiedFiles: number;
}

/**
 * Keeps the matches whose file, re-read through a verified descriptor, has the same lines; drops
 * every match of a file that differs, and of every file not re-read by `deadline` (counted).
 */
export async function verifyMatches(root: string, matches: SearchMatch[], deadline: number): Promise<Verified> {
  const byFile = new Map<string, SearchMatch[]>();
  for (const m of matches) (byFile.get(m.path) ?? byFile.set(m.path, []).get(m.path)!).push(m);
  const ok = new Set<string>();
  let unverifiedFiles = 0;
  for (const [file, ms] of byFile) {
    const v = Date.now() > deadline ? 'late' : await fileAgrees(join(root, file), ms, deadline);
    if (v === true) ok.add(file);
    else if (v === 'late') unverifiedFiles++;
  }
  return { matches: matches.filter((m) => ok.has(m.path)), unverifiedFiles };
}

// Expected text of every line number the matches mention (match line plus context).
function wanted(ms: SearchMatch[]): Map<number, string> {
  const want = new Map<number, string>();
  for (const m of ms) {
    m.before.forEach((t, i) => want.set(m.line - m.before.length + i, t));
    want.set(m.line, m.text);
    m.after.forEach((t, i) => want.set(m.line + 1 + i, t));
  }
  return want;
}

async function fileAgrees(abs: string, ms: SearchMatch[], deadline: number): Promise<boolean | 'late'> {
  if (ms.some((m) => m.path.split('/').includes('..'))) return false;
  const fd = openFileVerifiedSync(abs);
  if (fd === null) return false;
  try {
    const want = wanted(ms);
    const last = Math.max(...want.keys());
    const buf = Buffer.alloc(CHUNK);
    let decoder: StringDecoder | undefined;
    let swap = false;
    let carry = '';
    let n = 0;
    const check = (raw: string): boolean => {
      n++;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const w = want.get(n);
      return w === undefined || capLine(line) === w || capLine(raw) === w;
    };
    for (let pos = 0; n < last; ) {
      if (Date.now() > deadline) return 'late';
      const { bytesRead: got } = await readAsync(fd, buf, 0, CHUNK, pos);
      if (got === 0) break;
      let bytes = buf.subarray(0, got);
      if (decoder === undefined) {
        // ripgrep transcodes BOM-marked UTF-16 and strips a UTF-8 BOM; read the file the same way.
        const bom = bytes[0] === 0xff && bytes[1] === 0xfe ? 'le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'be' : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 'utf8' : null;
        decoder = new StringDecoder(bom === 'le' || bom === 'be' ? 'utf16le' : 'utf8');
        swap = bom === 'be';
        bytes = bytes.subarray(bom === null ? 0 : bom === 'utf8' ? 3 : 2);
        pos += got - bytes.length;
      }
      if (swap) bytes = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2))).swap16();
      pos += bytes.length;
      const lines = (carry + decoder.write(bytes)).split('\n');
      carry = lines.pop() ?? '';
      for (const l of lines) if (!check(l)) return false;
    }
    if (n < last && carry !== '' && !check(carry)) return false;
    return n >= last;
  } finally {
    closeSync(fd);
  }
}

// The gitlinks (submodule entries, mode 160000) of a git index: git enters each populated one
// (status, diff), so each must pass the same check. Reads index versions 2, 3 and 4.
import { unsafeGit } from '../../../policy/git-config/judge-git-config.js';
import { CHECK_LIMITS, entryNames, readMeta, strictUtf8, type CheckCtx } from './meta-reader.js';

const GITLINK = 0o160000;
const MODE_TYPE = 0o170000;

/** Paths of the gitlinks in `gitDir`'s index and any split-index base (sharedindex.*). */
export async function indexGitlinks(ctx: CheckCtx, gitDir: string, sha256: boolean): Promise<string[]> {
  const names = (await entryNames(ctx, gitDir)).filter((n) => n === 'index' || n.startsWith('sharedindex.'));
  const out: string[] = [];
  for (const n of names) {
    const buf = await readMeta(ctx, `${gitDir}/${n}`, CHECK_LIMITS.indexBytes);
    if (buf !== null) out.push(...parseGitlinks(buf, sha256 ? 32 : 20, `${gitDir}/${n}`));
  }
  return out;
}

/** Parses an index and returns the paths of its gitlink entries; an index it cannot read is refused. */
export function parseGitlinks(buf: Buffer, idLen: number, file: string): string[] {
  const bad = (why: string): never => unsafeGit(`index ${file}`, `could not be read to find submodules (${why})`);
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') bad('no DIRC header');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) bad(`version ${version}`);
  const count = buf.readUInt32BE(8);
  const out: string[] = [];
  let at = 12;
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const fixed = 40 + idLen + 2;
    if (at + fixed > buf.length) bad('entry past the end');
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + 40 + idLen);
    const extended = version >= 3 && (flags & 0x4000) !== 0;
    let p = at + fixed + (extended ? 2 : 0);
    let path: Buffer;
    if (version === 4) {
      const [strip, next] = readVarint(buf, p, bad);
      if (strip > prev.length) bad('bad path compression');
      const end = buf.indexOf(0, next);
      if (end < 0) bad('unterminated path');
      path = Buffer.concat([prev.subarray(0, prev.length - strip), buf.subarray(next, end)]);
      p = end + 1;
    } else {
      const end = buf.indexOf(0, p);
      if (end < 0) bad('unterminated path');
      path = buf.subarray(p, end);
      p = at + ((fixed + (extended ? 2 : 0) + path.length + 8) & ~7);
    }
    if ((mode & MODE_TYPE) === GITLINK) out.push(strictUtf8(path, `a submodule path in index ${file}`));
    prev = path;
    at = p;
  }
  return out;
}

// git's offset varint (used by index v4 path compression).
function readVarint(buf: Buffer, at: number, bad: (why: string) => never): [number, number] {
  if (at >= buf.length) bad('varint past the end');
  let c = buf[at++]!;
  let val = c & 127;
  while (c & 128) {
    if (at >= buf.length || val > 1 << 24) bad('bad varint');
    c = buf[at++]!;
    val = ((val + 1) << 7) | (c & 127);
  }
  return [val, at];
}

// Detects a text encoding from a file's first bytes and decodes windows of it.

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

export interface Detected {
  encoding: TextEncoding;
  /** Bytes of BOM to skip at the start of the file. */
  bomBytes: number;
  binary: boolean;
}

/** Classifies a file head: a BOM wins; NUL bytes mean binary; valid UTF-8 else Latin-1. */
export function detectEncoding(head: Buffer): Detected {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3, binary: false };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2, binary: false };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2, binary: false };
  if (head.includes(0)) return { encoding: 'latin1', bomBytes: 0, binary: true };
  return { encoding: isUtf8(head) ? 'utf-8' : 'latin1', bomBytes: 0, binary: false };
}

// A head may end mid-sequence: only the last 3 bytes are allowed to be an incomplete sequence.
function isUtf8(b: Buffer): boolean {
  const cut = utf8Boundary(b, b.length);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, cut));
    return true;
  } catch {
    return false;
  }
}

/** The largest index ≤ end that does not split a UTF-8 sequence. */
export function utf8Boundary(b: Buffer, end: number): number {
  for (let i = end - 1, n = 0; i >= 0 && n < 4; i--, n++) {
    const c = b[i];
    if ((c & 0xc0) === 0x80) continue;
    const len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return i + len <= end ? end : i;
  }
  return end;
}

/** Decodes bytes in the given encoding (UTF-16BE by swapping to LE). */
export function decodeBytes(b: Buffer, enc: TextEncoding): string {
  if (enc === 'utf-16be') {
    const even = b.subarray(0, b.length - (b.length % 2));
    const swapped = Buffer.from(even);
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return b.toString(enc === 'utf-8' ? 'utf8' : enc);
}

/** Bytes per code unit: windows of UTF-16 files are kept on even boundaries. */
export function unitSize(enc: TextEncoding): number {
  return enc === 'utf-16le' || enc === 'utf-16be' ? 2 : 1;
}

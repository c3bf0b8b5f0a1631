// read_file: a byte or line window of a text file, never reading past the window.
import type { FileHandle } from 'node:fs/promises';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';
import { openCheckedFile } from '../open-checked.js';
import { decodeBytes, detectEncoding, unitSize, utf8Boundary, type Detected } from './text-encoding.js';
import { readLineWindow } from './read-lines.js';

export interface ReadFileArgs {
  path: string;
  offset?: number;
  max_bytes: number;
  start_line?: number;
  max_lines?: number;
}

export interface ReadFileResult {
  path: string;
  content: string;
  encoding: string;
  offset: number;
  next_offset: number | null;
  eof: boolean;
  total_bytes: number;
  lines?: { start: number; count: number };
}

/**
 * Opens a checked regular file (open first, then verify the descriptor: see open-checked.ts) and
 * classifies its encoding; binary files, FIFOs and devices are refused. All reads go through `fh`.
 */
export async function openText(deps: AppDeps, p: string, tool: string, sparseOk = false): Promise<{ real: string; fh: FileHandle; size: number; det: Detected }> {
  const { fh, real, stat: st } = await openCheckedFile(deps, p, { kind: 'file', tool });
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(head, 0, 8192, 0);
    let det = detectEncoding(head.subarray(0, bytesRead));
    // A log whose head is all NUL (sparse file, copytruncate padding) is judged by its tail instead.
    if (det.binary && sparseOk && head.subarray(0, bytesRead).every((b) => b === 0)) det = await detectTail(fh, st.size);
    if (det.binary) throw new AppError('invalid_params', `${real} is a binary file (NUL bytes in its first 8 KiB); ${tool} reads text only`, { hint: 'use run_command with `xxd`, `file` or `strings` to inspect it' });
    return { real, fh, size: st.size, det };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

async function detectTail(fh: FileHandle, size: number): Promise<Detected> {
  const tail = Buffer.alloc(Math.min(8192, size));
  await fh.read(tail, 0, tail.length, size - tail.length);
  const d = detectEncoding(tail.subarray(tail.lastIndexOf(0) + 1));
  return { ...d, bomBytes: 0 };
}

/** Reads the requested window; line mode (start_line/max_lines) wins over offset. */
export async function readFileWindow(deps: AppDeps, args: ReadFileArgs): Promise<ReadFileResult> {
  const { real, fh, size, det } = await openText(deps, args.path, 'read_file');
  try {
    if (args.start_line !== undefined || args.max_lines !== undefined) {
      const w = await readLineWindow(fh, det, { startLine: args.start_line ?? 1, maxLines: args.max_lines ?? 1000, maxBytes: args.max_bytes, size });
      return { path: real, content: w.content, encoding: det.encoding, offset: w.offset, next_offset: w.nextOffset, eof: w.nextOffset === null, total_bytes: size, lines: { start: args.start_line ?? 1, count: w.count } };
    }
    return { path: real, ...(await readByteWindow(fh, det, args.offset ?? 0, args.max_bytes, size)), encoding: det.encoding, total_bytes: size };
  } finally {
    await fh.close();
  }
}

async function readByteWindow(fh: FileHandle, det: Detected, offset: number, maxBytes: number, size: number) {
  const unit = unitSize(det.encoding);
  let start = Math.max(offset, det.bomBytes);
  start -= (start - det.bomBytes) % unit;
  const want = Math.min(maxBytes, Math.max(0, size - start));
  const extra = det.encoding === 'utf-8' ? 3 : 0;
  const buf = Buffer.alloc(want + extra);
  const { bytesRead } = await fh.read(buf, 0, want + extra, start);
  let end = Math.min(bytesRead, want);
  if (det.encoding === 'utf-8' && start + end < size) end = utf8End(buf, end, bytesRead);
  end -= end % unit;
  const next = start + end;
  const eof = next >= size;
  return { content: decodeBytes(buf.subarray(0, end), det.encoding), offset: start, next_offset: eof ? null : next, eof };
}

// Extends a cut that splits a UTF-8 sequence by up to 3 bytes so the window ends on a boundary.
function utf8End(buf: Buffer, end: number, available: number): number {
  const cut = utf8Boundary(buf, end);
  if (cut === end) return end;
  for (let e = end + 1; e <= available; e++) if (utf8Boundary(buf, e) === e) return e;
  return cut;
}

// Durable small files: write a temp file, fsync it, rename over the target, fsync the directory.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes `value` as JSON to `file` so a reader sees the old or the new content, never a torn one. */
export function writeJsonAtomic(file: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(file, JSON.stringify(value), mode);
}

/** sha256 (hex) of a text or bytes. */
export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Writes `text` to `file` atomically (temp file, fsync, rename, directory fsync). */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  try {
    const dfd = openSync(dirname(file), 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    /* directory fsync is best effort (not supported everywhere) */
  }
}

/** Reads a JSON file, or undefined when it is absent or unreadable. */
export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

// Reads a request's JSON body within a size bound, as a result the caller turns into a status.
import type { IncomingMessage } from 'node:http';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 499; message: string };

/**
 * The parsed body, or why there is none (413 too large, 400 not JSON or nested deeper than
 * MAX_JSON_DEPTH, 499 client gone). An
 * oversized body is drained, not buffered: answering before the client finished sending (or
 * destroying the socket) would reset the connection and lose the 413.
 */
export function readJsonBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.once('error', () => resolve({ ok: false, status: 499, message: 'client closed the request' }));
    req.once('aborted', () => resolve({ ok: false, status: 499, message: 'client closed the request' }));
    req.once('end', () => {
      if (size > max) return resolve({ ok: false, status: 413, message: `request body over ${max} bytes; send less` });
      const text = Buffer.concat(chunks).toString('utf8');
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        return resolve({ ok: false, status: 400, message: `the body nests deeper than ${MAX_JSON_DEPTH} levels; send flatter JSON` });
      }
      try {
        resolve({ ok: true, value: JSON.parse(text) });
      } catch {
        resolve({ ok: false, status: 400, message: 'the body is not valid JSON; send a JSON object' });
      }
    });
  });
}

// Screens stdio input line by line: a line that is not JSON, or not a JSON-RPC message, gets a
// JSON-RPC error answer (-32700 / -32600) instead of the silence the SDK gives it; a line over
// MAX_MESSAGE_BYTES is answered with an error and dropped as it streams in (never held whole), so
// the SDK's own read buffer (10 MiB, past which it closes the transport for good) never sees it.
// Everything valid passes through untouched, one line per chunk, to the SDK transport.
import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { scanJsonRpcId } from './jsonrpc-id-scan.js';
import { createLineSplitter, type OversizedLine } from './stdio-line-split.js';

/** The largest stdio message Workbench reads (SPEC §4.1a); below the SDK's 10 MiB buffer. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Builds the filter; `out` receives the error answers. */
export function createStdioFilter(out: Writable, maxBytes = MAX_MESSAGE_BYTES): Transform {
  const reject = (code: number, message: string, id: unknown = null) =>
    out.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  const tooLarge = (o: OversizedLine) => {
    const id = scanJsonRpcId(o.head.toString('utf8'), o.tail.toString('utf8'));
    const mib = (maxBytes / 1048576).toFixed(0);
    reject(-32600, `Invalid Request: the message is ${o.bytes} bytes, over the ${maxBytes}-byte (${mib} MiB) limit; it was discarded. Pass large data through a file in the workspace instead.`, id);
  };
  let transform: Transform;
  const splitter = createLineSplitter(maxBytes, {
    line: (bytes) => screen(bytes, reject, (b) => transform.push(b)),
    oversized: tooLarge,
  });
  transform = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      splitter.push(chunk);
      done();
    },
    flush(done: TransformCallback) {
      splitter.end();
      done();
    },
  });
  return transform;
}

type Reject = (code: number, message: string, id?: unknown) => void;

function screen(bytes: Buffer, reject: Reject, push: (b: Buffer) => void): void {
  const line = bytes.toString('utf8');
  if (line.trim() === '') return;
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return void reject(-32700, 'Parse error: the line is not valid JSON');
  }
  const problem = invalidRequest(msg);
  if (problem) return void reject(-32600, `Invalid Request: ${problem}`, idOf(msg));
  push(Buffer.concat([bytes, Buffer.from('\n')]));
}

function invalidRequest(msg: unknown): string | undefined {
  if (Array.isArray(msg)) return 'batches are not supported';
  if (typeof msg !== 'object' || msg === null) return 'expected a JSON-RPC object';
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  const hasMethod = typeof m.method === 'string';
  const isResponse = 'result' in m || 'error' in m;
  if (!hasMethod && !isResponse) return 'expected a method (request/notification) or a result/error (response)';
  if ('id' in m && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number') return 'id must be a string or number';
  if (hasMethod && 'params' in m && (typeof m.params !== 'object' || m.params === null)) return 'params must be an object or array';
  return undefined;
}

function idOf(msg: unknown): unknown {
  const id = (msg as Record<string, unknown> | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

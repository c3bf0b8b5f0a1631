// Screens stdio input line by line: a line that is not JSON, or not a JSON-RPC message, gets a
// JSON-RPC error answer (-32700 / -32600, id null) instead of the silence the SDK gives it;
// everything valid passes through untouched to the SDK transport.
import { Transform, type TransformCallback, type Writable } from 'node:stream';

const MAX_LINE = 16 * 1024 * 1024;

/** Builds the filter; `out` receives the error answers. */
export function createStdioFilter(out: Writable): Transform {
  let pending = '';
  let discarding = false;
  const reject = (code: number, message: string, id: unknown = null) =>
    out.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  const screen = (line: string, push: (s: string) => void) => {
    if (line.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return void reject(-32700, 'Parse error: the line is not valid JSON');
    }
    const problem = invalidRequest(msg);
    if (problem) return void reject(-32600, `Invalid Request: ${problem}`, idOf(msg));
    push(`${line}\n`);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      pending += chunk.toString('utf8');
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (discarding) discarding = false;
        else screen(line, (s) => this.push(s));
      }
      if (pending.length > MAX_LINE) {
        pending = '';
        if (!discarding) reject(-32600, `Invalid Request: message over ${MAX_LINE} bytes`);
        discarding = true;
      }
      done();
    },
    flush(done: TransformCallback) {
      if (!discarding) screen(pending, (s) => this.push(s));
      done();
    },
  });
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

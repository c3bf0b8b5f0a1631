// Reads an MCP POST body (bounded) and answers a JSON-RPC error itself when it cannot be used.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from './read-body.js';

/** The parsed body, or undefined after an error response was sent (or the client left). */
export async function readMcpBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<{ value: unknown } | undefined> {
  const body = await readJsonBody(req, max);
  if (body.ok && isMessageObject(body.value)) return { value: body.value };
  if (!body.ok && body.status === 499) return undefined;
  const [status, code, message] = !body.ok
    ? [body.status, body.status === 400 ? -32700 : -32600, body.status === 400 ? `Parse error: ${body.message}` : body.message]
    : [400, -32600, 'Invalid Request: the body must be one JSON-RPC message object (batches are not supported)'];
  const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  return undefined;
}

function isMessageObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

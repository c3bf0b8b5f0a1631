// Raw HTTP helpers for the control tests: keep-alive requests with full control of headers and body.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent | false;
  timeoutMs?: number;
}

/** One request; resolves with the answer, rejects on a socket error or when timeoutMs passes. */
export function raw(base: string, r: RawRequest): Promise<RawResponse> {
  const u = new URL(base);
  // Node sends a DELETE/OPTIONS body without a length unless told: always frame the body explicitly.
  const length = r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {};
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: r.path, method: r.method ?? 'POST', headers: { host: u.host, ...length, ...(r.headers ?? {}) }, agent: r.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(r.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${r.timeoutMs ?? 30_000} ms: ${r.method ?? 'POST'} ${r.path}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** POST JSON with the bearer token; parses the JSON answer. */
export async function postJson(base: string, token: string, path: string, body: unknown, agent?: Agent): Promise<RawResponse & { json: any }> {
  const res = await raw(base, {
    path,
    agent,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { ...res, json: res.text ? JSON.parse(res.text) : undefined };
}

/** A tools/call over /mcp as one raw JSON-RPC POST (stateless legacy serving); returns the JSON-RPC result. */
export async function mcpCall(base: string, token: string, name: string, args: unknown, agent?: Agent, id = 1): Promise<{ status: number; result?: any; error?: any }> {
  const res = await raw(base, {
    path: '/mcp',
    agent,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });
  const msg = parseRpc(res.text);
  return { status: res.status, result: msg?.result, error: msg?.error };
}

/** The JSON-RPC message of a JSON or SSE answer. */
export function parseRpc(text: string): any {
  const t = text.trim();
  if (t.startsWith('{')) return JSON.parse(t);
  const data = t.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean);
  return data.length > 0 ? JSON.parse(data[data.length - 1]!) : undefined;
}

/** Resident set size of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Runs `tasks` with at most `limit` in flight; resolves with every result in order. */
export async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}

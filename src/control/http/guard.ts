// Host/Origin guard (DNS-rebinding defence) and bearer-token check for every HTTP route.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type GuardVerdict = { ok: true } | { ok: false; status: 400 | 401 | 403; message: string };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Host must be a loopback name (or the explicitly bound host) with the bound port; Origin likewise when present. */
export function checkHostAndOrigin(req: IncomingMessage, port: number, boundHost: string): GuardVerdict {
  const host = req.headers.host;
  if (!host) return { ok: false, status: 400, message: 'missing Host header' };
  const names = new Set([...LOOPBACK_NAMES, boundHost.includes(':') ? `[${boundHost}]` : boundHost]);
  const allowedHosts = new Set([...names].map((n) => `${n}:${port}`));
  if (!allowedHosts.has(host.toLowerCase())) {
    return { ok: false, status: 403, message: `Host ${JSON.stringify(host)} is not allowed; use 127.0.0.1:${port} or localhost:${port}` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
    if (!allowedOrigins.has(origin.toLowerCase())) {
      return { ok: false, status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
    }
  }
  return { ok: true };
}

/** Constant-time token comparison (hashes first so lengths never leak); an empty expected token never matches. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!expected || given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Checks `Authorization: Bearer <token>`. */
export function checkBearer(req: IncomingMessage, token: string): GuardVerdict {
  const header = req.headers.authorization;
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) return { ok: false, status: 401, message: 'missing bearer token; send Authorization: Bearer <token> (see `workbench token`)' };
  if (!tokenMatches(m[1], token)) return { ok: false, status: 401, message: 'invalid bearer token' };
  return { ok: true };
}

// network_check: DNS answers and TCP connect latency; anything but loopback needs policy.allow_network.
import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import type { AppDeps } from '../../control/deps.js';
import { AppError } from '../../shared/errors.js';

export interface NetworkCheckArgs {
  host: string;
  port?: number;
  timeout_ms: number;
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopback(addr: string): boolean {
  const a = addr.replace(/^::ffff:/i, '');
  return (isIP(a) === 4 && a.startsWith('127.')) || a === '::1';
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/** Resolves the host, refuses non-loopback targets unless allowed, then tries one TCP connect. */
export async function networkCheck(deps: AppDeps, args: NetworkCheckArgs) {
  const allowed = deps.config.policy.allow_network;
  const host = args.host.trim().replace(/^\[(.*)\]$/, '$1');
  // Without network permission even the DNS query is not sent for a non-loopback name.
  if (!allowed && !isLoopback(host) && !LOOPBACK_NAMES.has(host.toLowerCase())) denied(host);
  const t0 = performance.now();
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (err) {
    return { host, addresses: [], dns_ms: ms(t0), connected: false, error: `DNS lookup failed: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  const dns_ms = ms(t0);
  if (!allowed && addresses.some((a) => !isLoopback(a))) denied(host);
  if (args.port === undefined) return { host, addresses, dns_ms, connected: false };
  const c = await tcpConnect(addresses[0], args.port, args.timeout_ms);
  return { host, addresses, dns_ms, port: args.port, ...c };
}

function denied(host: string): never {
  throw new AppError('policy_denied', `${host} is not a loopback address and network access is off`, { rule: 'net.not_allowed', hint: 'set policy.allow_network = true in the config to check other hosts' });
}

function ms(t0: number): number {
  return Math.round((performance.now() - t0) * 100) / 100;
}

function tcpConnect(address: string, port: number, timeoutMs: number): Promise<{ connected: boolean; connect_ms?: number; error?: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const sock = new Socket();
    const done = (r: { connected: boolean; connect_ms?: number; error?: string }) => (sock.destroy(), resolve(r));
    sock.setTimeout(timeoutMs, () => done({ connected: false, error: `no answer within ${timeoutMs} ms` }));
    sock.once('connect', () => done({ connected: true, connect_ms: ms(t0) }));
    sock.once('error', (e: NodeJS.ErrnoException) => done({ connected: false, connect_ms: ms(t0), error: e.code ?? e.message }));
    sock.connect({ host: address, port });
  });
}

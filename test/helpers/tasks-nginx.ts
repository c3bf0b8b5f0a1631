// A generated nginx error.log with known error frequencies, and a small source tree to search.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Error kinds and how often each appears; the top five are the first five. */
export const NGINX_ERRORS: Array<[string, number]> = [
  ['upstream timed out', 40],
  ['connect() failed', 25],
  ['no live upstreams', 15],
  ['upstream prematurely closed connection', 10],
  ['SSL_do_handshake() failed', 6],
  ['client intended to send too large body', 3],
  ['open() failed', 2],
];

/** Writes logs/error.log (errors interleaved, plus warn noise) and src/*.c; returns the error line count. */
export function writeNginxFixture(ws: string): number {
  const lines: string[] = [];
  const queue = NGINX_ERRORS.flatMap(([msg, n]) => Array.from({ length: n }, () => msg));
  // Deterministic interleaving so the counts come from the pipeline, not from file order.
  queue.sort((a, b) => (a.length * 7919) % 13 - (b.length * 7919) % 13 || a.localeCompare(b));
  queue.forEach((msg, i) => {
    const t = `2024/05/01 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    lines.push(`${t} [error] 1234#0: *${i} ${msg} (110: Connection timed out), client: 10.0.0.${i % 250}, server: example.com`);
    if (i % 9 === 0) lines.push(`${t} [warn] 1234#0: *${i} an upstream response is buffered to a temporary file`);
  });
  mkdirSync(join(ws, 'logs'));
  writeFileSync(join(ws, 'logs', 'error.log'), `${lines.join('\n')}\n`);
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'proxy.c'), 'static void on_timeout(void) {\n  log_error("upstream timed out");\n}\n');
  writeFileSync(join(ws, 'src', 'connect.c'), 'int dial(void) {\n  if (rc < 0) log_error("connect() failed");\n  return rc;\n}\n');
  writeFileSync(join(ws, 'src', 'balancer.c'), '/* picks a peer */\nif (!peer) log_error("no live upstreams");\n');
  writeFileSync(join(ws, 'src', 'body.c'), 'log_error("client intended to send too large body");\n');
  return queue.length;
}

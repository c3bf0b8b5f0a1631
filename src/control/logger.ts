// JSON-lines logger on stderr (stdout belongs to the stdio transport). pino loads shortly after
// start-up, off the cold-start path; until then each line is serialized here, in pino's shape.
import { writeSync } from 'node:fs';
import type { Logger as Pino } from 'pino';

/** The logging surface the planes use: one JSON object per line (a pino logger satisfies it). */
export interface Logger {
  debug(obj: object): void;
  info(obj: object): void;
  warn(obj: object): void;
  error(obj: object): void;
}

type Level = keyof Logger;

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const LOAD_DELAY_MS = 200;

/** Creates the process logger; synchronous writes so a crash never loses the last lines. */
export function createLogger(level: string): Logger {
  const threshold = LEVELS[level] ?? LEVELS.info!;
  let pino: Pino | undefined;
  setTimeout(() => {
    void import('pino').then(({ pino: create }) => {
      pino = create(
        { level, base: { pid: process.pid }, timestamp: create.stdTimeFunctions.isoTime, messageKey: 'msg' },
        create.destination({ fd: 2, sync: true }),
      );
    });
  }, LOAD_DELAY_MS).unref();
  const log = (l: Level) => (obj: object) => {
    if (pino) pino[l](obj);
    else if (LEVELS[l]! >= threshold) writeStderr(`${earlyLine(l, obj)}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/**
 * Writes to fd 2 synchronously, as pino's sync destination does (creating process.stderr costs
 * milliseconds at start-up). A full non-blocking pipe is retried; other errors drop the line.
 */
function writeStderr(line: string): void {
  const buf = Buffer.from(line);
  for (let off = 0; off < buf.length; ) {
    try {
      off += writeSync(2, buf, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** A line as pino writes it (level, time, pid, then the fields; errors as type/message/stack; cycles cut). */
function earlyLine(level: Level, obj: object): string {
  const seen = new WeakSet<object>();
  const record = { level: LEVELS[level], time: new Date().toISOString(), pid: process.pid, ...obj };
  return JSON.stringify(record, (_key, value: unknown) => {
    if (value instanceof Error) return { type: value.name, message: value.message, stack: value.stack };
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    return value;
  });
}

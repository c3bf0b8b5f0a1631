// JSON-lines logger on stderr (stdout belongs to the stdio transport).
import { pino, type Logger } from 'pino';

/** Creates the process logger; synchronous writes so a crash never loses the last lines. */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, messageKey: 'msg' },
    pino.destination({ fd: 2, sync: true }),
  );
}

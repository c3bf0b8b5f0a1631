// SQL for the audit table: one row per tool call, each text field capped so one row stays small,
// and old rows deleted in bounded batches (audit.retention_days).
import type { Db } from './db.js';

/** Byte caps of what one audit row stores; a cut field ends with a marker saying how much was dropped. */
export const AUDIT_FIELD_CAPS = { args: 16 * 1024, requestId: 256, sessionId: 256, tool: 128, transport: 32, errorClass: 64 } as const;

export interface AuditRecord {
  requestId: string;
  sessionId?: string;
  transport: string;
  tool: string;
  startedAt: string;
  durationMs: number;
  /** success: the tool did it; failure: it ran but reported failure (e.g. non-zero exit); error: could not be carried out. */
  outcome: 'success' | 'failure' | 'error';
  errorClass?: string;
  resultBytes: number;
  truncated: boolean;
  /** Raw arguments, only when log.args = true. */
  args?: string;
}

export interface AuditRepo {
  insert(rec: AuditRecord): void;
  recent(limit: number): AuditRecord[];
  /** Deletes up to `limit` rows started before `before` (ISO time), oldest first; returns how many. */
  pruneBefore(before: string, limit: number): number;
}

/** Cuts `text` to `max` UTF-8 bytes (on a character boundary) and says how many bytes were dropped. */
export function capField(text: string, max: number): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= max) return text;
  const kept = Buffer.from(text).subarray(0, max).toString('utf8').replace(/\uFFFD+$/, '');
  return `${kept}…[workbench: cut, ${bytes - Buffer.byteLength(kept)} of ${bytes} bytes dropped]`;
}

function capRecord(rec: AuditRecord): AuditRecord {
  const c = AUDIT_FIELD_CAPS;
  return {
    ...rec,
    requestId: capField(rec.requestId, c.requestId),
    sessionId: rec.sessionId === undefined ? undefined : capField(rec.sessionId, c.sessionId),
    tool: capField(rec.tool, c.tool),
    transport: capField(rec.transport, c.transport),
    errorClass: rec.errorClass === undefined ? undefined : capField(rec.errorClass, c.errorClass),
    args: rec.args === undefined ? undefined : capField(rec.args, c.args),
  };
}

/** Creates the audit repository over an open database. */
export function createAuditRepo(db: Db): AuditRepo {
  const insert = db.prepare(
    `INSERT INTO audit (request_id, session_id, transport, tool, started_at, duration_ms, outcome, error_class, result_bytes, truncated, args)
     VALUES (@requestId, @sessionId, @transport, @tool, @startedAt, @durationMs, @outcome, @errorClass, @resultBytes, @truncated, @args)`,
  );
  const recent = db.prepare(
    `SELECT request_id AS requestId, session_id AS sessionId, transport, tool, started_at AS startedAt,
            duration_ms AS durationMs, outcome, error_class AS errorClass, result_bytes AS resultBytes,
            truncated, args FROM audit ORDER BY id DESC LIMIT ?`,
  );
  const prune = db.prepare('DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE started_at < ? ORDER BY started_at LIMIT ?)');
  return {
    insert(raw) {
      const rec = capRecord(raw);
      insert.run({
        ...rec,
        sessionId: rec.sessionId ?? null,
        errorClass: rec.errorClass ?? null,
        truncated: rec.truncated ? 1 : 0,
        args: rec.args ?? null,
      });
    },
    recent(limit) {
      return (recent.all(limit) as Array<Omit<AuditRecord, 'truncated'> & { truncated: number }>).map((r) => ({
        ...r,
        truncated: Boolean(r.truncated),
      }));
    },
    pruneBefore(before, limit) {
      return prune.run(before, limit).changes;
    },
  };
}

// SQL for the audit table: one row per tool call.
import type { Db } from './db.js';

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
  return {
    insert(rec) {
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
  };
}

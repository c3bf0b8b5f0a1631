-- Every tool call, one row: who asked for what, how long it took, how it ended.
CREATE TABLE audit (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id    TEXT    NOT NULL,
  session_id    TEXT,
  transport     TEXT    NOT NULL,
  tool          TEXT    NOT NULL,
  started_at    TEXT    NOT NULL,
  duration_ms   REAL    NOT NULL,
  outcome       TEXT    NOT NULL CHECK (outcome IN ('success', 'failure', 'error')),
  error_class   TEXT,
  result_bytes  INTEGER NOT NULL DEFAULT 0,
  truncated     INTEGER NOT NULL DEFAULT 0,
  args          TEXT
);
CREATE INDEX audit_started_at ON audit (started_at);
CREATE INDEX audit_tool ON audit (tool);

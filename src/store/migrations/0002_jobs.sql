-- Durable jobs: one row per job_start. Logs live in <state>/jobs/<id>/; this row is the index.
CREATE TABLE jobs (
  id              TEXT    PRIMARY KEY,
  name            TEXT,
  command         TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'lost')),
  created_at      TEXT    NOT NULL,
  started_at      TEXT,
  ended_at        TEXT,
  exit_code       INTEGER,
  signal          TEXT,
  pid             INTEGER,
  pid_start       TEXT,
  sup_pid         INTEGER,
  sup_start       TEXT,
  stdout_bytes    INTEGER NOT NULL DEFAULT 0,
  stderr_bytes    INTEGER NOT NULL DEFAULT 0,
  stdout_dropped  INTEGER NOT NULL DEFAULT 0,
  stderr_dropped  INTEGER NOT NULL DEFAULT 0,
  stdin_open      INTEGER NOT NULL DEFAULT 0,
  note            TEXT
);
CREATE INDEX jobs_status ON jobs (status);
CREATE INDEX jobs_ended_at ON jobs (ended_at);

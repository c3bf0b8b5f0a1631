-- Task flows (SPEC §3.4): a task is an ordered list of steps driven by a state machine
-- (src/execution/scheduler/transitions.ts). Each step row keeps its input, output, timing and error.
CREATE TABLE tasks (
  id            TEXT    PRIMARY KEY,
  name          TEXT,
  created_at    TEXT    NOT NULL,
  status        TEXT    NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'paused', 'cancelled')),
  status_reason TEXT,
  dry_run       INTEGER NOT NULL DEFAULT 0,
  current_step  INTEGER NOT NULL DEFAULT 0,
  step_count    INTEGER NOT NULL,
  last_updated  TEXT    NOT NULL
);
CREATE INDEX tasks_status ON tasks (status, last_updated);

CREATE TABLE task_steps (
  id           TEXT    PRIMARY KEY,
  task_id      TEXT    NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  step_number  INTEGER NOT NULL,
  action       TEXT    NOT NULL,
  parameters   TEXT    NOT NULL,
  save_as      TEXT,
  run_if       TEXT    NOT NULL DEFAULT 'always' CHECK (run_if IN ('success', 'failure', 'always')),
  on_failure   TEXT    NOT NULL DEFAULT 'pause' CHECK (on_failure IN ('pause', 'continue', 'abort')),
  mode         TEXT    NOT NULL DEFAULT 'sync' CHECK (mode IN ('sync', 'job')),
  timeout_ms   INTEGER,
  status       TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'executing', 'success', 'failed', 'skipped')),
  result       TEXT,
  error        TEXT,
  note         TEXT,
  attempts     INTEGER NOT NULL DEFAULT 0,
  started_at   TEXT,
  ended_at     TEXT,
  job_id       TEXT,
  rerun_safe   INTEGER,
  claim_owner  TEXT,
  lease_until  INTEGER,
  UNIQUE (task_id, step_number)
);
CREATE INDEX task_steps_next ON task_steps (task_id, status, step_number);
CREATE INDEX task_steps_lease ON task_steps (status, lease_until);

CREATE TABLE task_context (
  task_id      TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  context_data TEXT NOT NULL DEFAULT '{}'
);

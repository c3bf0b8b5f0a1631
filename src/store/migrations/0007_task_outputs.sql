-- Task totals (SPEC §4.1a, scheduler.max_context_bytes): a large step result is stored once, in its
-- own row, instead of in the step row that every task view reads; and each save_as writes one row
-- of its own, so a step never rewrites the whole context (the cost of a save does not grow with it).
CREATE TABLE task_step_outputs (
  step_id  TEXT    PRIMARY KEY REFERENCES task_steps (id) ON DELETE CASCADE,
  result   TEXT    NOT NULL,
  bytes    INTEGER NOT NULL
);

-- One row per saved key, over the initial context in task_context. `value` is the saved result, or a
-- reference object to the step's stored result when the context would exceed its bound.
CREATE TABLE task_context_entries (
  task_id  TEXT    NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  key      TEXT    NOT NULL,
  value    TEXT    NOT NULL,
  bytes    INTEGER NOT NULL,
  step_id  TEXT,
  PRIMARY KEY (task_id, key)
);

-- Retention prunes ended tasks by age.
CREATE INDEX tasks_ended ON tasks (last_updated) WHERE status IN ('completed', 'failed', 'cancelled');

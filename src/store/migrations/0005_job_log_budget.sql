-- The job-log budget (SPEC §4.1a, jobs.max_total_log_bytes): one row per job that holds bytes of
-- log space. A supervisor reserves space in chunks before it writes (BEGIN IMMEDIATE: the sum of
-- every reservation never exceeds the budget), and sets its row to the bytes actually stored when
-- the job ends. A pruned job's row goes with it (ON DELETE CASCADE), so the sum is always the
-- space held by the jobs that still exist: nothing to drift, nothing to recount.
-- Numbered 0005 (not 0004) so it sorts after another branch's new migration.
CREATE TABLE job_log_budget (
  job_id    TEXT    PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  reserved  INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0)
);
-- Jobs that already exist hold what their rows say they stored.
INSERT INTO job_log_budget (job_id, reserved)
  SELECT id, max(0, stdout_bytes - stdout_dropped) + max(0, stderr_bytes - stderr_dropped) FROM jobs WHERE status <> 'queued';

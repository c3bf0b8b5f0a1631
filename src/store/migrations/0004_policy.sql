-- Jobs and tasks record the policy they were created under (SPEC §3.2, §3.4): the canonical record
-- (JSON) and its sha256 fingerprint. A server claims only work whose fingerprint equals its own.
-- Rows from before this migration have none: no server claims them, and views say why.
ALTER TABLE jobs ADD COLUMN policy TEXT;
ALTER TABLE jobs ADD COLUMN policy_fp TEXT;
-- sha256 of spec.json as the server wrote it: a supervisor refuses a spec changed since.
ALTER TABLE jobs ADD COLUMN spec_sha256 TEXT;
CREATE INDEX jobs_queue ON jobs (status, policy_fp);
ALTER TABLE tasks ADD COLUMN policy TEXT;
ALTER TABLE tasks ADD COLUMN policy_fp TEXT;
CREATE INDEX tasks_policy ON tasks (status, policy_fp);

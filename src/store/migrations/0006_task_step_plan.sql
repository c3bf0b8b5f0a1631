-- The plan a dry run showed for each step (SPEC §3.4): the context values its parameters were
-- resolved with (hash and preview), whether it ran for real because it only reads, and what it
-- showed. Written when the dry run records the step; task_confirm keeps it, and the confirmed run
-- refuses a step whose values now differ (rule task.plan_changed). NULL: no plan recorded (a real
-- task, a step whose parameters were replaced by task_resume, or a dry run from before this column).
ALTER TABLE task_steps ADD COLUMN plan TEXT;

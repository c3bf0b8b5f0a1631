// Limits of a task flow, in a module light enough for the tool definitions to import at start-up.

/** The schema's ceiling on steps (scheduler.max_steps may not exceed it); the configured limit is checked by createTask. */
export const MAX_STEPS = 10_000;

/** A step result larger than this is stored once in task_step_outputs; its step row keeps a preview. */
export const ROW_INLINE_BYTES = 64 * 1024;

/** The totals of SPEC §4.1a a task store enforces (from [scheduler] in the config). */
export interface TaskLimits {
  maxActiveTasks: number;
  maxSteps: number;
  maxContextBytes: number;
}

/** The defaults of the config schema, for stores opened without a config (CLI, tests). */
export const DEFAULT_TASK_LIMITS: TaskLimits = { maxActiveTasks: 100, maxSteps: 200, maxContextBytes: 1024 * 1024 };

/** The limits of a parsed [scheduler] section. */
export function taskLimitsOf(s: { max_active_tasks: number; max_steps: number; max_context_bytes: number }): TaskLimits {
  return { maxActiveTasks: s.max_active_tasks, maxSteps: s.max_steps, maxContextBytes: s.max_context_bytes };
}

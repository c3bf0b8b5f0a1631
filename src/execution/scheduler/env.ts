// What the scheduler runs on: the two repositories, the tool table, and how a step invokes a tool.
import type { WireResult } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import type { PolicyContext, Profile } from '../../policy/types.js';
import type { Db } from '../../store/db.js';
import { createTaskStepsRepo, type TaskStepsRepo } from '../../store/task-steps-repo.js';
import { createTasksRepo, type TasksRepo } from '../../store/tasks-repo.js';
import { createTaskOutputsRepo, type TaskOutputsRepo } from '../../store/task-outputs-repo.js';
import { DEFAULT_TASK_LIMITS, type TaskLimits } from './task-limits.js';

/** Runs one tool call for a step; in the server this is invokeTool (validation, envelope, audit). */
export type StepInvoker = (def: ToolDef, args: unknown, signal: AbortSignal) => Promise<WireResult>;

/** The repositories of the tasks tables, and the totals they are kept within. */
export interface TaskStore {
  tasks: TasksRepo;
  steps: TaskStepsRepo;
  outputs: TaskOutputsRepo;
  limits: TaskLimits;
}

/** Everything the runner needs; tests and benches build their own with a small tool table. */
export interface SchedulerEnv extends TaskStore {
  tools(): Map<string, ToolDef>;
  invoke: StepInvoker;
  profile: Profile;
  /** The server's policy context; a dry run uses it to tell the steps that only read (shadow mode). */
  policyContext?: () => PolicyContext;
  /** The fingerprint of the runner's policy: it claims, recovers and runs only tasks bound to it. */
  policyFp: string;
  leaseMs: number;
  log(event: string, data: Record<string, unknown>): void;
}

/** Opens the tasks repositories over a database (limits: the config's [scheduler] totals, else the defaults). */
export function createTaskStore(db: Db, limits: TaskLimits = DEFAULT_TASK_LIMITS): TaskStore {
  return { tasks: createTasksRepo(db), steps: createTaskStepsRepo(db), outputs: createTaskOutputsRepo(db), limits };
}

/** A name → definition map of a tool list. */
export function toolMap(tools: ToolDef[]): Map<string, ToolDef> {
  return new Map(tools.map((t) => [t.name, t]));
}

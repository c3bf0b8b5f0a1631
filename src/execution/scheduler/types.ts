// Shapes shared by the scheduler plane and the tasks repositories.

export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'paused' | 'cancelled';
export type StepStatus = 'pending' | 'executing' | 'success' | 'failed' | 'skipped';
export type RunIf = 'success' | 'failure' | 'always';
export type OnFailure = 'pause' | 'continue' | 'abort';
export type StepMode = 'sync' | 'job';

/** A step as a caller describes it (task_create). */
export interface StepSpec {
  action: string;
  parameters: Record<string, unknown>;
  save_as?: string;
  run_if?: RunIf;
  on_failure?: OnFailure;
  mode?: StepMode;
  timeout_ms?: number;
}

/** A task row. */
export interface TaskRecord {
  id: string;
  name: string | null;
  createdAt: string;
  status: TaskStatus;
  statusReason: string | null;
  dryRun: boolean;
  currentStep: number;
  stepCount: number;
  lastUpdated: string;
  /** The policy the task is bound to: canonical record (JSON) and fingerprint; null for rows older than the record. */
  policy: string | null;
  policyFp: string | null;
}

/** A step row, parameters and result decoded. */
export interface StepRecord {
  id: string;
  taskId: string;
  stepNumber: number;
  action: string;
  parameters: Record<string, unknown>;
  saveAs: string | null;
  runIf: RunIf;
  onFailure: OnFailure;
  mode: StepMode;
  timeoutMs: number | null;
  status: StepStatus;
  result: unknown;
  error: string | null;
  note: string | null;
  attempts: number;
  startedAt: string | null;
  endedAt: string | null;
  jobId: string | null;
  rerunSafe: boolean | null;
  claimOwner: string | null;
  leaseUntil: number | null;
  /** What the dry run showed for this step (task_confirm runs exactly that); null when none was recorded. */
  plan: StepPlan | null;
}

/** One context value a dry-run step was resolved with: its reference, a hash of its value and a preview. */
export interface PinnedRef {
  reference: string;
  sha256: string;
  preview: string;
}

/** The plan a dry run showed for a step, kept for the confirmed run (plan-pin.ts). */
export interface StepPlan {
  /** The step ran for real in the dry run because it only reads. */
  read: boolean;
  /** Every reference whose value the dry run knew; references it did not know (placeholders) are not pinned. */
  refs: PinnedRef[];
  /** A preview of what the dry run showed: the argvs of a command, else the parameters. */
  shown: string;
}

/** How a step ended, as the runner records it. */
export interface StepOutcome {
  status: Extract<StepStatus, 'success' | 'failed' | 'skipped'>;
  result: unknown;
  error: string | null;
  note: string | null;
  /** A dry run's plan for the step, recorded with the outcome. */
  plan?: StepPlan;
}

/** The JSON object every task keeps: initial context plus each step's save_as result. */
export type TaskContext = Record<string, unknown>;

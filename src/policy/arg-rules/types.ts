// The shape every per-command argument policy shares.

/** What an argument policy sees: the normalized command name and its arguments (argv[1..]). */
export interface RuleInput {
  cmd: string;
  args: readonly string[];
  /** `job` for job_start: commands that follow output forever are fine there. */
  mode: 'sync' | 'job';
}

/** What an argument policy found: the paths to check, and optionally rewritten arguments. */
export interface ArgVerdict {
  reads?: string[];
  /** Directories read recursively: refused when they contain secrets. */
  recursiveReads?: string[];
  /** Directories git reads as a whole work tree: they and the work tree around them are recursive reads. */
  workTreeReads?: string[];
  writes?: string[];
  /** Replacement for argv[1..] (hardening options the policy adds). */
  args?: string[];
}

/** A per-command argument policy: returns paths to check, throws PolicyDenial to refuse. */
export type ArgRule = (input: RuleInput) => ArgVerdict;

/** The verdict for commands whose operands are plain data. */
export const NO_PATHS: ArgVerdict = Object.freeze({});

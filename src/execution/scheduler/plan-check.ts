// The confirmed run against the dry run's plan (SPEC §3.4): before a step with a recorded plan runs,
// the values it resolves now are compared with the ones the dry run showed. A step with side effects
// whose values changed does not run: it fails with rule task.plan_changed (its task pauses), naming
// each value as shown and as it is now. A step the dry run ran because it only reads may see new
// values (its output may change), as long as it still only reads; else it is refused the same way.
import { readsOnly, type DryRunInput } from './dry-run.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import { planChanges, shownOf } from './plan-pin.js';
import { PLAN_CHANGED } from './step-plan.js';
import type { StepOutcome, TaskContext } from './types.js';

export const PLAN_CHANGED_RULE = 'task.plan_changed';

/** Null when the step may run; else the failed outcome that stops it. */
export function checkPlan(env: SchedulerEnv, input: DryRunInput, ctx: TaskContext): StepOutcome | null {
  const { step, args, command } = input;
  const plan = step.plan;
  if (!plan) return null;
  const changed = planChanges(plan, ctx);
  if (changed.length === 0 || (plan.read && readsOnly(env, input))) return null;
  const now = shownOf(args, command);
  const values = changed.map((c) => `${c.reference} was ${c.shown} in the dry run and is ${c.now} now`).join('; ');
  const effect = plan.read
    ? `the dry run ran ${plan.shown} because it only reads; it would now run ${now}, which does not only read`
    : `the dry run showed ${plan.shown}; it would now run ${now}`;
  const error = `step ${step.stepNumber} (${step.action}) no longer matches the plan its dry run showed (rule ${PLAN_CHANGED_RULE}), so it did not run: ${values}; ${effect}. `
    + 'Run a new dry run (task_create with dry_run: true) to review and confirm the plan as it is now.';
  return failedOutcome(error, PLAN_CHANGED, { allowed: false, rule: PLAN_CHANGED_RULE, shown: plan.shown, now, changed });
}

// Records how a step ended and advances its task, in one transaction.
import type { TaskStore } from './env.js';
import { rowResultOf, saveToContext } from './saved-results.js';
import { dryRunRefusal, taskEventAfter } from './step-plan.js';
import { applyTaskEvent } from './task-events.js';
import { stepTransition } from './transitions.js';
import type { StepOutcome, StepRecord } from './types.js';

const EVENT = { success: 'succeed', failed: 'fail', skipped: 'skip' } as const;

/** Writes the outcome if `owner` still holds the step; false when the claim was lost. */
export function finishStep(store: TaskStore, step: StepRecord, owner: string | null, outcome: StepOutcome): boolean {
  return store.tasks.atomic(() => {
    stepTransition('executing', EVENT[outcome.status]);
    // A large result is stored once apart from the row; the save writes only its own key (saved-results.ts).
    const row = rowResultOf(step, outcome.result);
    if (!store.steps.finish(step.id, owner, { ...outcome, result: row.value, endedAt: new Date().toISOString() })) return false;
    if (row.apart) store.outputs.putOutput(step.id, row.json!);
    if (outcome.plan) store.steps.setPlan(step.id, outcome.plan);
    const task = store.tasks.get(step.taskId)!;
    if (step.saveAs && outcome.status !== 'skipped' && row.json !== null && !task.dryRun) saveToContext(store, step, row);
    // A cancelled (or otherwise stopped) task keeps its status; the step row still records what happened.
    if (task.status !== 'running') return true;
    const hasOpen = store.steps.hasOpen(task.id);
    const next = taskEventAfter({
      outcome, onFailure: step.onFailure, stepNumber: step.stepNumber, action: step.action, dryRun: task.dryRun, hasOpen,
      dryRunRefusal: task.dryRun && !hasOpen ? dryRunRefusal(store.steps.forTask(task.id)) : null,
    });
    if (next) applyTaskEvent(store, task, next.event, { reason: next.reason });
    return true;
  });
}

/** A failed outcome with an error sentence. */
export function failedOutcome(error: string, note: string | null = null, result: unknown = null): StepOutcome {
  return { status: 'failed', result, error, note };
}

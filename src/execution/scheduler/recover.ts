// The crash rule: what happens to a step whose runner died (lease expired or owner process gone).
import type { TaskStore } from './env.js';
import { finishStep, failedOutcome } from './finish-step.js';
import { ownerIsDead } from './owner-id.js';
import { applyTaskEvent } from './task-events.js';
import { stepTransition } from './transitions.js';
import type { StepRecord } from './types.js';

export const INTERRUPTED_ERROR =
  'interrupted: the runner stopped while this step was executing and it may have had side effects; check, then task_resume to run it again';

export interface RecoverInput {
  owner: string;
  leaseMs: number;
  /** The recovering runner's policy: steps of tasks bound to another policy are left to a runner of theirs. */
  policyFp: string;
}

/** Steps of this policy abandoned by dead runners, recovered by the crash rule; returns job steps taken over to re-attach. */
export function recoverAbandoned(store: TaskStore, me: RecoverInput): StepRecord[] {
  const { owner, policyFp } = me;
  const now = Date.now();
  const dead = store.steps.executingOwners(policyFp).filter((s) => s.owner !== owner && s.owner !== null && ownerIsDead(s.owner));
  const ids = new Set([...store.steps.expired(now, policyFp).map((s) => s.id), ...dead.map((s) => s.id)]);
  const attach: StepRecord[] = [];
  for (const id of ids) {
    const step = recoverOne(store, id, { owner, leaseUntil: now + me.leaseMs, policyFp });
    if (step) attach.push(step);
  }
  return attach;
}

function recoverOne(store: TaskStore, id: string, me: { owner: string; leaseUntil: number; policyFp: string }): StepRecord | undefined {
  return store.tasks.atomic(() => {
    const step = store.steps.get(id);
    if (!step || step.status !== 'executing' || step.claimOwner === me.owner) return undefined;
    if (store.tasks.get(step.taskId)?.policyFp !== me.policyFp) return undefined;
    const expired = (step.leaseUntil ?? 0) < Date.now() || ownerIsDead(step.claimOwner);
    if (!expired) return undefined;
    // A job step whose id was stored: the job outlives its runner, so take it over and wait on it.
    if (step.mode === 'job' && step.jobId) {
      return store.steps.takeOver(id, step.claimOwner, me.owner, me.leaseUntil) ? { ...step, claimOwner: me.owner } : undefined;
    }
    // Read-only (decided when it was claimed) → run again.
    if (step.rerunSafe === true) {
      stepTransition('executing', 'release');
      store.steps.release(id, step.claimOwner, 'interrupted; re-run because the step is read-only');
      return undefined;
    }
    markInterrupted(store, step);
    return undefined;
  });
}

function markInterrupted(store: TaskStore, step: StepRecord): void {
  // finishStep would apply on_failure; the crash rule always pauses with reason "interrupted".
  const task = store.tasks.get(step.taskId)!;
  if (task.status === 'running') applyTaskEvent(store, task, 'pause', { reason: 'interrupted' });
  finishStep(store, step, step.claimOwner, failedOutcome(INTERRUPTED_ERROR, 'interrupted'));
}

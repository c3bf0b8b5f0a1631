// Keeps a claimed step's lease alive while it runs; aborts the step when the claim is lost or the task cancelled.
import type { SchedulerEnv } from './env.js';
import type { StepRecord } from './types.js';

/** Renews every leaseMs/3; returns a function that stops renewing. */
export function holdLease(env: SchedulerEnv, step: StepRecord, owner: string, ac: AbortController): () => void {
  const every = Math.max(50, Math.floor(env.leaseMs / 3));
  const timer = setInterval(() => {
    try {
      if (!env.steps.renew(step.id, owner, Date.now() + env.leaseMs)) ac.abort('lost');
      else if (env.tasks.get(step.taskId)?.status === 'cancelled') ac.abort('cancel');
    } catch (err) {
      // SQLITE_BUSY under heavy contention: two more renewals remain before the lease runs out.
      env.log('task_lease_renew_failed', { step: step.id, err: (err as Error).message });
    }
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}

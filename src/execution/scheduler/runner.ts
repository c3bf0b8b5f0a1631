// The claim loop: claims the next pending step of a running task, runs it under a lease, records it.
import type { SchedulerEnv } from './env.js';
import { executeStep, type StepRun } from './execute-step.js';
import { failedOutcome, finishStep } from './finish-step.js';
import { holdLease } from './lease.js';
import { newOwnerId } from './owner-id.js';
import { recoverAbandoned } from './recover.js';
import { rerunSafeAtClaim } from './step-plan.js';
import type { StepRecord } from './types.js';
import { createWakeSignal } from './wake-signal.js';

export interface RunnerOptions {
  env: SchedulerEnv;
  /** Steps run at once by this runner (different tasks). Default 4. */
  slots?: number;
  /** Idle poll interval; other processes (the CLI, other runners) are seen through the database. Default 250. */
  pollMs?: number;
  /** Grace for in-flight steps at stop() before they are left to the crash rule. Default 3000. */
  stopGraceMs?: number;
}

/** A runner over one database; several runners (threads or processes) may share it. */
export type Runner = ReturnType<typeof createRunner>;

/** Creates a runner; call start() to begin claiming. */
export function createRunner(opts: RunnerOptions) {
  const { env } = opts;
  const owner = newOwnerId();
  const slots = opts.slots ?? 4;
  const pollMs = opts.pollMs ?? 250;
  const active = new Map<string, { ac: AbortController; taskId: string; done: Promise<void> }>();
  const signal = createWakeSignal();
  let stopped = true;
  let loop: Promise<void> | undefined;
  let nextSweep = 0;

  function launch(step: StepRecord): void {
    const ac = new AbortController();
    const stopLease = holdLease(env, step, owner, ac);
    const done = executeStep(env, step, owner, ac.signal)
      .catch((err: unknown) => {
        env.log('task_step_internal_error', { step: step.id, err: (err as Error).message });
        return failedOutcome('internal error while running this step; see the server log');
      })
      .then((run) => settle(step, run, ac.signal))
      .finally(() => {
        stopLease();
        active.delete(step.id);
        signal.wake();
      });
    active.set(step.id, { ac, taskId: step.taskId, done });
  }

  function settle(step: StepRecord, run: StepRun, sig: AbortSignal): void {
    // Lost lease or shutdown: leave the row to whoever recovers it (the crash rule).
    if (run === 'abandon' || (sig.aborted && sig.reason !== 'cancel')) return;
    try {
      if (run === 'release') env.steps.release(step.id, owner, 'busy; retried');
      else if (!finishStep(env, step, owner, run)) env.log('task_step_claim_lost', { step: step.id });
    } catch (err) {
      env.log('task_step_record_failed', { step: step.id, err: (err as Error).message });
    }
  }

  function claimWork(): boolean {
    if (Date.now() >= nextSweep) {
      nextSweep = Date.now() + Math.max(pollMs, 1000);
      for (const step of recoverAbandoned(env, { owner, leaseMs: env.leaseMs, policyFp: env.policyFp })) launch(step);
    }
    if (active.size >= slots) return false;
    const tools = env.tools();
    const rerunSafe = (s: StepRecord, dry: boolean) => rerunSafeAtClaim(tools, env.profile, s, dry);
    const step = env.steps.claimNext({ owner, policyFp: env.policyFp, leaseUntil: Date.now() + env.leaseMs, now: new Date().toISOString(), rerunSafe });
    if (step) launch(step);
    return step !== undefined;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let claimed = false;
      try {
        claimed = claimWork();
      } catch (err) {
        env.log('task_claim_failed', { owner, err: (err as Error).message });
      }
      if (!claimed || active.size >= slots) await signal.sleep(pollMs);
      else await new Promise((r) => setImmediate(r));
    }
  }

  return {
    owner,
    start(): void {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    /** Ends the loop sooner than the next poll (new work was written). */
    wake: () => signal.wake(),
    /** Aborts the executing step of a task in this process (task_cancel). */
    cancelTask(taskId: string): void {
      for (const a of active.values()) if (a.taskId === taskId) a.ac.abort('cancel');
    },
    get activeCount(): number {
      return active.size;
    },
    /** Stops claiming; waits for in-flight steps, then leaves the rest to the crash rule. */
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      signal.wake();
      await loop;
      const grace = new Promise((r) => setTimeout(r, opts.stopGraceMs ?? 3000).unref());
      await Promise.race([Promise.all([...active.values()].map((a) => a.done)), grace]);
      for (const [id, a] of active) {
        a.ac.abort('shutdown');
        try {
          env.steps.renew(id, owner, 0);
        } catch {
          // The database may already be closing; the lease then simply runs out.
        }
      }
    },
  };
}

// The scheduler inside the server: one runner per process, created on first use, stopped at close.
import type { AppDeps } from '../../control/deps.js';
import { invokeTool } from '../../control/invoke.js';
import { buildTools } from '../../control/registry.js';
import { serverPolicy } from '../../control/server-policy.js';
import { createTaskStore, toolMap, type SchedulerEnv } from './env.js';
import { createRunner, type Runner } from './runner.js';
import { taskLaneGates } from './task-lane.js';
import { taskLimitsOf } from './task-limits.js';
import { startTaskRetention } from './task-retention.js';

export interface Scheduler {
  env: SchedulerEnv;
  runner: Runner;
}

/** The task store only (no runner): for tools and commands that read or change tasks. */
export function taskStoreOf(deps: AppDeps) {
  return deps.service('task-store', () => createTaskStore(deps.store().db, taskLimitsOf(deps.config.scheduler)));
}

/**
 * Starts (once) the runner of this process. Tasks left running by a previous process continue,
 * and steps it left executing go through the crash rule. Call at start-up to resume without waiting for a tool call.
 */
export function ensureScheduler(deps: AppDeps): Scheduler {
  return deps.service('scheduler', () => {
    // Steps run in their own lane (scheduler.max_concurrent_steps): never in the slots of interactive calls.
    const gates = taskLaneGates(deps.config);
    const store = taskStoreOf(deps);
    const env: SchedulerEnv = {
      ...store,
      tools: () => toolMap(buildTools(deps)),
      invoke: (def, args, signal) => invokeTool(deps, gates, def, args, { transport: 'task', signal }),
      profile: deps.runtime.profile,
      policyContext: () => deps.policyContext(),
      policyFp: serverPolicy(deps).fingerprint,
      leaseMs: deps.config.scheduler.lease_ms,
      log: (event, data) => deps.logger.warn({ event, ...data }),
    };
    const runner = createRunner({ env, slots: deps.config.scheduler.max_concurrent_steps });
    runner.start();
    deps.onClose(() => runner.stop());
    const log = (event: string, data: Record<string, unknown>) => deps.logger.info({ event, ...data });
    startTaskRetention({ store, days: deps.config.scheduler.retention_days, now: () => deps.now(), log, onClose: (fn) => deps.onClose(fn) });
    return { env, runner };
  });
}

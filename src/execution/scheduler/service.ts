// The scheduler inside the server: one runner per process, created on first use, stopped at close.
import type { AppDeps } from '../../control/deps.js';
import { Gate } from '../../control/gate.js';
import { invokeTool, type Gates } from '../../control/invoke.js';
import { buildTools } from '../../control/registry.js';
import { serverPolicy } from '../../control/server-policy.js';
import { createTaskStore, toolMap, type SchedulerEnv } from './env.js';
import { createRunner, type Runner } from './runner.js';

export interface Scheduler {
  env: SchedulerEnv;
  runner: Runner;
}

/** The task store only (no runner): for tools and commands that read or change tasks. */
export function taskStoreOf(deps: AppDeps) {
  return deps.service('task-store', () => createTaskStore(deps.store().db));
}

/**
 * Starts (once) the runner of this process. Tasks left running by a previous process continue,
 * and steps it left executing go through the crash rule. Call at start-up to resume without waiting for a tool call.
 */
export function ensureScheduler(deps: AppDeps): Scheduler {
  return deps.service('scheduler', () => {
    // Shares the app's gates when createApp registers them as the 'gates' service; else steps get their own.
    const gates = deps.service<Gates>('gates', () => ownGates(deps));
    const env: SchedulerEnv = {
      ...taskStoreOf(deps),
      tools: () => toolMap(buildTools(deps)),
      invoke: (def, args, signal) => invokeTool(deps, gates, def, args, { transport: 'task', signal }),
      profile: deps.runtime.profile,
      policyContext: () => deps.policyContext(),
      policyFp: serverPolicy(deps).fingerprint,
      leaseMs: deps.config.scheduler.lease_ms,
      log: (event, data) => deps.logger.warn({ event, ...data }),
    };
    const runner = createRunner({ env });
    runner.start();
    deps.onClose(() => runner.stop());
    return { env, runner };
  });
}

function ownGates(deps: AppDeps): Gates {
  const c = deps.config.control;
  const opts = { maxQueue: c.max_queue, queueWaitMs: c.queue_wait_ms };
  return {
    main: new Gate({ name: 'task', maxInflight: c.max_inflight, ...opts }),
    status: new Gate({ name: 'task-status', maxInflight: c.status_lane_inflight, ...opts }),
  };
}

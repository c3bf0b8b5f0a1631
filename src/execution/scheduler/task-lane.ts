// The task lane (SPEC §4.1a): background task steps have their own concurrency. The runner never
// runs more than scheduler.max_concurrent_steps steps, and every tool call a step makes (main or
// status lane alike) passes this lane's own gate, so however many tasks run, the [control] slots
// interactive calls need stay free.
import type { Config } from '../../config/schema.js';
import { Gate } from '../../control/gate.js';
import type { Gates } from '../../control/invoke.js';

/** Gates for task steps: one gate of max_concurrent_steps slots for both lanes (a step makes one call at a time). */
export function taskLaneGates(config: Config): Gates {
  const lane = new Gate({
    name: 'task step',
    maxInflight: config.scheduler.max_concurrent_steps,
    maxQueue: config.scheduler.max_concurrent_steps,
    queueWaitMs: config.control.queue_wait_ms,
  });
  return { main: lane, status: lane };
}

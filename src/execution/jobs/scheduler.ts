// The queue: claims queued jobs of the claimer's own policy in FIFO order while a slot is free and launches their supervisors.
// Called by the server (start, reconcile tick) and by a supervisor when its job ends.
import type { JobsRepo } from '../../store/jobs-repo.js';
import { launchSupervisor, type Launched } from './launch.js';
import { processStartTime } from './proc-identity.js';
import { zeroCounts, type LaunchContext } from './types.js';

export interface SchedulerContext {
  repo: JobsRepo;
  /** The claimer's policy fingerprint: it claims only jobs bound to it. */
  policyFp: string;
  maxRunning: number;
  /** The claimer's own policy, limits and host facts, handed to the supervisors it starts (built on the first claim). */
  launch: () => LaunchContext;
  now: () => Date;
}

/** Starts as many queued jobs of the claimer's policy as there are free slots; returns what it launched. */
export function startQueued(ctx: SchedulerContext): Map<string, Launched> {
  const launched = new Map<string, Launched>();
  const { maxRunning, policyFp } = ctx;
  let launch: LaunchContext | undefined;
  for (;;) {
    const id = ctx.repo.claimNext({ maxRunning, now: ctx.now().toISOString(), policyFp });
    if (!id) return launched;
    try {
      launch ??= ctx.launch();
      const l = launchSupervisor(launch, id, ctx.repo.specSha256(id));
      ctx.repo.setSupervisor(id, l.supPid, processStartTime(l.supPid));
      launched.set(id, l);
    } catch (err) {
      ctx.repo.finish(id, {
        status: 'failed',
        exitCode: null,
        signal: null,
        endedAt: ctx.now().toISOString(),
        counts: zeroCounts(),
        note: `the supervisor could not be started: ${(err as Error).message}`,
      });
    }
  }
}

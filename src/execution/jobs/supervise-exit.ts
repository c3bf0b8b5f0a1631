// The supervisor's wait loop: timeout, cancel requests (file or SIGTERM), a limit's stop request,
// stdin close requests, periodic byte-count flushes, and the rule that no process of the tree outlives the job.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CgroupHandle } from '../../sandbox/cgroup.js';
import { killTree, signalGroups } from '../kill-tree.js';
import { readJson } from './atomic-write.js';
import type { JobPaths } from './paths.js';
import type { StdinRelay } from './stdin-relay.js';

export const DEFAULT_GRACE_MS = 3000;
const POLL_MS = 200;

export interface Ended {
  code: number | null;
  signal: string | null;
  /** `limit`: a limit of the state directory (jobs.max_total_log_bytes, …) stopped the job. */
  reason: 'exit' | 'timeout' | 'cancelled' | 'limit';
}

export interface SuperviseOptions {
  children: ChildProcess[];
  pids: number[];
  cgroup?: CgroupHandle;
  paths: JobPaths;
  timeoutMs: number;
  relay?: StdinRelay;
  /** Aborted when a limit requires the job to stop. */
  limitStop?: AbortSignal;
  /** Called about once a second while the job runs. */
  onTick: () => void;
}

/** Ends the tree politely: TERM to every process (cgroup members and process groups), KILL after the grace. */
function makeStopper(o: SuperviseOptions, onReason: (r: Ended['reason']) => void) {
  let killTimer: NodeJS.Timeout | undefined;
  return {
    stop(reason: Ended['reason'], graceMs: number) {
      if (killTimer) return;
      onReason(reason);
      o.cgroup?.signal('SIGTERM');
      signalGroups(o.pids, 'SIGTERM');
      killTimer = setTimeout(() => killTree(o.pids, o.cgroup), Math.max(0, graceMs));
    },
    clear: () => clearTimeout(killTimer),
  };
}

/** Grace requested in the cancel file, else the default. */
export function requestedGrace(paths: JobPaths): number {
  const req = readJson<{ grace_ms?: number }>(paths.cancel);
  return typeof req?.grace_ms === 'number' ? req.grace_ms : DEFAULT_GRACE_MS;
}

/** Resolves once every stage has closed; the exit status is the last stage's. */
export function superviseUntilExit(o: SuperviseOptions): Promise<Ended> {
  return new Promise((resolve) => {
    let reason: Ended['reason'] = 'exit';
    const stopper = makeStopper(o, (r) => (reason = r));
    const onTerm = () => stopper.stop('cancelled', requestedGrace(o.paths));
    process.on('SIGTERM', onTerm);
    const onLimit = () => stopper.stop('limit', DEFAULT_GRACE_MS);
    if (o.limitStop?.aborted) onLimit();
    o.limitStop?.addEventListener('abort', onLimit, { once: true });
    const timer = o.timeoutMs > 0 ? setTimeout(() => stopper.stop('timeout', DEFAULT_GRACE_MS), o.timeoutMs) : undefined;
    let ticks = 0;
    const poll = setInterval(() => {
      if (existsSync(o.paths.cancel)) onTerm();
      if (o.relay && existsSync(o.paths.stdinClose)) o.relay.close();
      if (++ticks % Math.round(1000 / POLL_MS) === 0) o.onTick();
    }, POLL_MS);
    let lastExit: Omit<Ended, 'reason'> = { code: null, signal: null };
    o.children[o.children.length - 1]!.once('exit', (code, signal) => {
      lastExit = { code, signal };
      killTree(o.pids, o.cgroup); // leftovers (daemons holding our pipes) die with the job
    });
    let open = o.children.length;
    for (const child of o.children) {
      let done = false;
      const onDone = () => {
        if (done) return;
        done = true;
        if (--open > 0) return;
        [timer, poll].forEach((t) => clearTimeout(t));
        clearInterval(poll);
        stopper.clear();
        process.off('SIGTERM', onTerm);
        o.limitStop?.removeEventListener('abort', onLimit);
        o.relay?.dispose(); // the job ended: input still in the FIFO has no reader
        resolve({ ...lastExit, reason });
      };
      child.once('close', onDone);
      child.once('error', onDone);
    }
  });
}

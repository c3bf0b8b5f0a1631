// Job tools over a state directory the test chooses (several "servers" may share one), and the
// bytes the job logs of a state directory hold on disk.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema } from '../../src/config/schema.js';
import { createDeps } from '../../src/control/app.js';
import type { WireResult } from '../../src/control/envelope.js';
import { Gate } from '../../src/control/gate.js';
import { invokeTool, type CallInfo } from '../../src/control/invoke.js';
import { jobTools } from '../../src/control/tools/jobs.js';
import type { Profile } from '../../src/policy/types.js';

export interface BudgetAppSetup {
  profile: Profile;
  /** Workspace root (and cwd of jobs). */
  ws: string;
  state: string;
  /** The parent of ws and state (the private home of the sandbox). */
  home: string;
  config?: Record<string, unknown>;
}

/** Deps with the job tools over `state`; `call(tool, args)` returns the wire result. */
export function budgetApp(s: BudgetAppSetup) {
  const config = ConfigSchema.parse({ log: { level: 'silent' }, ...s.config });
  const runtime = { profile: s.profile, workspaceRoots: [s.ws], readRoots: [s.ws], writeRoots: s.profile === 'read-only' ? [] : [s.ws], stateDir: s.state, homeDir: s.home };
  const deps = createDeps(config, runtime, pino({ level: 'silent' }));
  const tools = jobTools(deps);
  const gate = () => new Gate({ name: 'test', maxInflight: 8, maxQueue: 8, queueWaitMs: 1000 });
  const gates = { main: gate(), status: gate() };
  const call = async (name: string, args: unknown, info: Partial<CallInfo> = {}): Promise<WireResult & { s: Record<string, any> }> => {
    const r = await invokeTool(deps, gates, tools.find((t) => t.name === name)!, args, { transport: 'memory', ...info });
    return Object.assign(r, { s: r.structuredContent as Record<string, any> });
  };
  /** Waits (job_wait, 20 s per call, `ms` in all) until the job has ended; returns its final status result. */
  const waitEnded = async (id: string, ms = 60_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await call('job_wait', { job_id: id, timeout_ms: 20_000 });
      if (!['queued', 'running'].includes(r.s.status)) return r;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${r.s.status} after ${ms} ms`);
    }
  };
  return { deps, call, waitEnded, close: () => deps.close() };
}

/** Bytes of every job's stdout.log, stderr.log and combined.idx under `<state>/jobs`. */
export function jobLogBytes(state: string): number {
  let total = 0;
  const root = join(state, 'jobs');
  for (const id of readdirSync(root)) {
    for (const f of ['stdout.log', 'stderr.log', 'combined.idx']) total += statSync(join(root, id, f), { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

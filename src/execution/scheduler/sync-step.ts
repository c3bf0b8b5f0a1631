// A `mode: sync` step: one tool call under the step's timeout, its wire result mapped to an outcome.
import type { WireResult } from '../../control/envelope.js';
import type { ToolDef } from '../../control/tool.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import type { StepOutcome, StepRecord } from './types.js';

/** `release`: the step could not start now (busy) and goes back to pending; `abandon`: the claim was lost. */
export type StepRun = StepOutcome | 'release' | 'abandon';

/** Calls the step's tool with its resolved arguments. */
export async function runSync(env: SchedulerEnv, step: StepRecord, def: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<StepRun> {
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  if (step.timeoutMs !== null) {
    if (def.name === 'run_command' && args.timeout_ms === undefined) args.timeout_ms = step.timeoutMs;
    else timer = setTimeout(() => ac.abort('timeout'), step.timeoutMs);
  }
  try {
    return outcomeOf(await env.invoke(def, args, ac.signal));
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Maps a tool's wire result to a step outcome: `success` true → success, anything else → failed. */
export function outcomeOf(res: WireResult): StepRun {
  const sc = res.structuredContent;
  if (res.isError && sc.error_class === 'busy') return 'release';
  if (sc.success === true) return { status: 'success', result: sc, error: null, note: null };
  return failedOutcome(typeof sc.error === 'string' ? sc.error : 'the tool reported failure', null, sc);
}

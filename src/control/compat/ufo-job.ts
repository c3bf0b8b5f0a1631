// execute_command with a timeout over 30 s: a durable job (same policy and sandbox) awaited to its end.
import type { RunResult } from '../../execution/run.js';
import type { AppDeps } from '../deps.js';
import type { ToolContext, ToolDef } from '../tool.js';
import { jobTools } from '../tools/jobs.js';

const OUTPUT_BYTES = 256 * 1024;
const ENDED = new Set(['succeeded', 'failed', 'cancelled', 'timed_out', 'lost']);

type Data = Record<string, unknown>;

export interface JobRunRequest {
  command: string;
  cwd?: string;
  timeoutS: number;
  ctx: ToolContext;
}

/** Starts the job with the timeout as its own limit, waits for its end, and reads its output. */
export async function runAsJob(deps: AppDeps, req: JobRunRequest): Promise<RunResult> {
  const tools = new Map(jobTools(deps).map((t) => [t.name, t]));
  const call = async (name: string, raw: Data): Promise<Data> => {
    const def = tools.get(name) as ToolDef;
    return (await def.handler(def.input.parse(raw) as Data, req.ctx)).data;
  };
  const started = await call('job_start', { command: req.command, cwd: req.cwd, timeout_ms: req.timeoutS * 1000, name: 'ufo execute_command' });
  const jobId = String(started.job_id);
  const deadline = Date.now() + (req.timeoutS + 10) * 1000;
  let view: Data = started;
  try {
    while (!ENDED.has(String(view.status))) {
      if (!req.ctx.signal.aborted && Date.now() < deadline) {
        view = await call('job_wait', { job_id: jobId, timeout_ms: 20_000 });
        continue;
      }
      view = await call('job_cancel', { job_id: jobId, grace_ms: 1000 });
      if (!ENDED.has(String(view.status))) view = await call('job_wait', { job_id: jobId, timeout_ms: 5000 });
      break;
    }
  } catch (err) {
    await call('job_cancel', { job_id: jobId, grace_ms: 1000 }).catch(() => undefined);
    throw err;
  }
  const [out, errOut] = await Promise.all(['stdout', 'stderr'].map((stream) => call('job_output', { job_id: jobId, stream, max_bytes: OUTPUT_BYTES })));
  return resultOf(view, out!, errOut!);
}

function resultOf(view: Data, out: Data, err: Data): RunResult {
  return {
    exit_code: typeof view.exit_code === 'number' ? view.exit_code : null,
    signal: typeof view.signal === 'string' ? view.signal : null,
    timed_out: view.status === 'timed_out',
    cancelled: view.status === 'cancelled',
    stdout: String(out.data ?? ''),
    stderr: String(err.data ?? ''),
    stdout_bytes: Number(view.stdout_bytes ?? 0),
    stderr_bytes: Number(view.stderr_bytes ?? 0),
    stdout_truncated: Number(out.next_offset) < Number(out.total_bytes),
    stderr_truncated: Number(err.next_offset) < Number(err.total_bytes),
    duration_ms: Number(view.duration_ms ?? 0),
    sandbox: [],
  };
}

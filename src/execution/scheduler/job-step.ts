// A `mode: job` step: starts its command with job_start, stores the job id, then waits with job_wait.
import type { ToolDef } from '../../control/tool.js';
import type { SchedulerEnv } from './env.js';
import { failedOutcome } from './finish-step.js';
import type { StepOutcome, StepRecord } from './types.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'timed_out', 'lost']);
const WAIT_SLICE_MS = 10_000;

export interface JobStepInput {
  step: StepRecord;
  owner: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
}

/** Runs (or, after a restart, re-attaches to) the step's durable job. */
export async function runJobStep(env: SchedulerEnv, input: JobStepInput): Promise<StepOutcome> {
  const tools = env.tools();
  const [start, wait] = [tools.get('job_start'), tools.get('job_wait')];
  if (!start || !wait) return failedOutcome('mode "job" needs the job_start and job_wait tools, which this server does not expose');
  let jobId = input.step.jobId;
  if (!jobId) {
    const started = await startJob(env, start, input);
    if (typeof started !== 'string') return started;
    jobId = started;
  }
  return waitJob(env, { wait, jobId, signal: input.signal });
}

async function startJob(env: SchedulerEnv, start: ToolDef, { step, owner, args, signal }: JobStepInput): Promise<string | StepOutcome> {
  if (args.stdin !== undefined || args.shell) return failedOutcome('a job step cannot take stdin or shell; drop them or use mode "sync"');
  const timeout = step.timeoutMs ?? (args.timeout_ms as number | undefined);
  const params = { command: args.command, cwd: args.cwd, env: args.env, network: args.network, timeout_ms: timeout, name: `task ${step.taskId} step ${step.stepNumber}` };
  const res = await env.invoke(start, JSON.parse(JSON.stringify(params)), signal);
  const jobId = res.structuredContent.job_id;
  if (res.isError || typeof jobId !== 'string') return failedOutcome(String(res.structuredContent.error ?? 'job_start failed'), null, res.structuredContent);
  // The id is stored before waiting, so a restarted runner re-attaches instead of starting it twice.
  env.steps.setJobId(step.id, owner, jobId);
  return jobId;
}

async function waitJob(env: SchedulerEnv, o: { wait: ToolDef; jobId: string; signal: AbortSignal }): Promise<StepOutcome> {
  for (;;) {
    if (o.signal.aborted) return cancelJob(env, o.jobId, o.signal.reason);
    const res = await env.invoke(o.wait, { job_id: o.jobId, timeout_ms: WAIT_SLICE_MS }, o.signal);
    const sc = res.structuredContent;
    if (res.isError && sc.error_class !== 'busy') return failedOutcome(String(sc.error ?? 'job_wait failed'), null, { job_id: o.jobId, ...sc });
    if (typeof sc.status === 'string' && TERMINAL.has(sc.status)) {
      const result = { job_id: o.jobId, ...sc, ...(await stdoutTail(env, o.jobId, o.signal)) };
      if (sc.status === 'succeeded') return { status: 'success', result, error: null, note: null };
      return failedOutcome(`job ${o.jobId} ended ${sc.status}${sc.exit_code != null ? ` (exit code ${String(sc.exit_code)})` : ''}`, null, result);
    }
    if (res.isError) await new Promise((r) => setTimeout(r, 500));
  }
}

async function cancelJob(env: SchedulerEnv, jobId: string, reason: unknown): Promise<StepOutcome> {
  // Only a task_cancel stops the job; on shutdown or a lost lease the job keeps running for the next runner.
  const cancel = env.tools().get('job_cancel');
  if (reason === 'cancel' && cancel) await env.invoke(cancel, { job_id: jobId }, new AbortController().signal);
  return failedOutcome(`stopped while waiting for job ${jobId}`, 'cancelled', { job_id: jobId });
}

async function stdoutTail(env: SchedulerEnv, jobId: string, signal: AbortSignal): Promise<{ stdout?: string }> {
  const out = env.tools().get('job_output');
  if (!out) return {};
  const res = await env.invoke(out, { job_id: jobId, stream: 'stdout', tail_lines: 200 }, signal);
  return typeof res.structuredContent.data === 'string' ? { stdout: res.structuredContent.data } : {};
}

// run_command and policy_check: the control-plane command tools (SPEC §3.1).
// Definitions load with zod only; the policy and the run code load on the first call.
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef } from '../tool.js';
import { runOutputShape } from './run-output-schema.js';

const policy = lazy(() => import('../../policy/decide.js'));
const gate = lazy(() => import('./decide-or-throw.js'));
const exec = lazy(() => import('./run-command-exec.js'));

/** run_command's default and maximum timeout (longer work goes to job_start). */
export const RUN_TIMEOUT_DEFAULT_MS = 20_000;
export const RUN_TIMEOUT_MAX_MS = 30_000;

const commandField = () =>
  z
    .union([z.array(z.string()).min(1), z.string().min(1)])
    .describe('argv (preferred) or a string split with shell quoting, never run by a shell; a|b pipelines ok');

const runInput = () =>
  z
    .object({
      command: commandField(),
      cwd: z.string().optional().describe('absolute; default: first workspace root'),
      env: z.record(z.string(), z.string()).optional().describe('extra environment variables'),
      stdin: z.string().optional(),
      timeout_ms: z.number().int().positive().optional().describe('default 20000, max 30000; use job_start for longer'),
      max_output_bytes: z.number().int().min(1024).max(4_194_304).optional().describe('per stream, default 65536; head and tail kept'),
      network: z.boolean().optional(),
      shell: z.boolean().optional().describe('run via sh -c (if the profile allows)'),
    })
    .strict();

/** The command tools. */
export function commandTools(deps: AppDeps): ToolDef[] {
  const run = defineTool({
    name: 'run_command',
    description:
      'Run one command (or an a|b|c pipeline, up to 16 stages) synchronously, without a shell, inside the policy and sandbox. Returns exit_code, stdout/stderr (capped; head+tail kept), duration. Max 30 s: use job_start for longer work.',
    schemas: () => ({
      input: runInput(),
      output: runOutputShape,
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const timeout = args.timeout_ms ?? RUN_TIMEOUT_DEFAULT_MS;
      if (timeout > RUN_TIMEOUT_MAX_MS) {
        throw new AppError('invalid_params', `timeout_ms ${timeout} is over the ${RUN_TIMEOUT_MAX_MS} limit of run_command`, {
          hint: 'start it with job_start and poll job_status / job_output',
        });
      }
      const [{ decideOrThrow }, { executeDecision, renderRun }] = await Promise.all([gate(), exec()]);
      const decision = decideOrThrow(deps, args);
      const result = await executeDecision(deps, decision, {
        cwd: args.cwd ?? deps.runtime.workspaceRoots[0]!,
        env: args.env,
        stdin: args.stdin,
        timeoutMs: timeout,
        maxOutputBytes: args.max_output_bytes ?? 65_536,
        signal: ctx.signal,
      });
      return renderRun(result);
    },
  });

  const check = defineTool({
    name: 'policy_check',
    description: 'Check whether run_command would allow a command here, and by which rule. Runs nothing.',
    schemas: () => ({
      input: z.object({ command: commandField(), cwd: z.string().optional(), shell: z.boolean().optional(), network: z.boolean().optional() }).strict(),
      output: { allowed: z.boolean(), rule: z.string(), message: z.string(), profile: z.string(), sandbox: z.array(z.string()) },
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    lane: 'status',
    async handler(args) {
      const { decide } = await policy();
      const cwd = args.cwd ?? deps.runtime.workspaceRoots[0] ?? '/';
      let d = decide({ command: args.command, cwd, shell: args.shell, network: args.network }, deps.policyContext());
      // The repository check run_command would do before a git stage (reads metadata, runs nothing).
      if (d.allow) d = (await (await exec()).gitStagesDenial(deps, d.stages, cwd)) ?? d;
      const layers = deps.capabilities().layers;
      const message = d.allow ? `allowed: ${d.stages.map((s: { name: string }) => s.name).join(' | ')}` : d.message;
      return { data: { allowed: d.allow, rule: d.rule, message, profile: deps.runtime.profile, sandbox: layers } };
    },
  });
  return [run, check];
}

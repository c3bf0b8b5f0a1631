// UFO compatibility ([compat] ufo = true): execute_command and get_system_info with the result shapes
// of UFO's Linux MCP server, run through Workbench's policy, sandbox, gate, log and audit.
// Definitions load with zod only; the run and job code load on the first call.
import { z } from 'zod';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef } from '../tool.js';

const auth = lazy(() => import('../compat/ufo-auth.js'));
const ufoRun = lazy(() => import('../compat/ufo-run.js'));
const ufoJob = lazy(() => import('../compat/ufo-job.js'));

/** The names served alone at /ufo/mcp. */
export const UFO_TOOL_NAMES = ['execute_command', 'get_system_info'] as const;

const apiKey = () => z.string().max(512).optional().describe('Workbench API token (`workbench token`); required at /ufo/mcp');

const SYSTEM_COMMANDS: Record<'uname' | 'uptime' | 'memory' | 'disk', string[]> = {
  uname: ['uname', '-a'],
  uptime: ['uptime'],
  memory: ['free', '-h'],
  disk: ['df', '-h'],
};

/** The UFO tools, or none when [compat] ufo is off. */
export function ufoTools(deps: AppDeps): ToolDef[] {
  if (!deps.config.compat.ufo) return [];
  return [executeCommandTool(deps), systemInfoTool(deps)];
}

/** An api_key, when given (on any transport), must match; /ufo/mcp checks it before the call and requires it. */
async function checkKeyIfGiven(deps: AppDeps, given: string | undefined): Promise<void> {
  if (given === undefined) return;
  const { assertApiKey, storedToken } = await auth();
  assertApiKey(given, storedToken(deps));
}

function executeCommandTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'execute_command',
    description:
      'UFO-compatible: run one command line (shell quoting, a|b pipelines; no shell) inside the Workbench policy and sandbox. timeout in seconds (1–120, default 30; over 30 it runs as a durable job and is awaited). Returns success, exit_code, stdout, stderr.',
    schemas: () => ({
      input: z
        .object({
          command: z.string().min(1).max(8192).describe("e.g. 'ls -la /var/log' or 'df -h'"),
          timeout: z.number().optional().describe('seconds, clamped to 1–120 (default 30)'),
          cwd: z.string().optional().describe('absolute; default: first workspace root'),
          api_key: apiKey(),
        })
        .strict(),
      output: {
        exit_code: z.number().int().nullable(),
        stdout: z.string(),
        stderr: z.string(),
        timed_out: z.boolean(),
        truncated: z.boolean(),
        timeout_s: z.number(),
      },
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    async handler(args, ctx) {
      await checkKeyIfGiven(deps, args.api_key);
      const { clampTimeout, runForUfo, SYNC_LIMIT_S, ufoOutcome } = await ufoRun();
      const timeoutS = clampTimeout(args.timeout);
      const request = { command: args.command, cwd: args.cwd, timeoutS };
      const r = timeoutS <= SYNC_LIMIT_S ? await runForUfo(deps, { ...request, signal: ctx.signal }) : await (await ufoJob()).runAsJob(deps, { ...request, ctx });
      return ufoOutcome(r, timeoutS);
    },
  });
}

function systemInfoTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'get_system_info',
    description: 'UFO-compatible: basic system information as text: uname -a, uptime, free -h, df -h (run in the sandbox).',
    schemas: () => ({
      input: z.object({ api_key: apiKey() }).strict(),
      output: { uname: z.string(), uptime: z.string(), memory: z.string(), disk: z.string() },
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    async handler(args, ctx) {
      await checkKeyIfGiven(deps, args.api_key);
      const entries = await Promise.all(
        Object.entries(SYSTEM_COMMANDS).map(async ([key, argv]) => [key, await systemField(deps, argv, ctx.signal)] as const),
      );
      return { data: Object.fromEntries(entries) };
    },
  });
}

/** One field of get_system_info: the trimmed stdout, or `Error: …` as UFO reports a failed probe. */
async function systemField(deps: AppDeps, argv: string[], signal: AbortSignal): Promise<string> {
  try {
    const { runForUfo } = await ufoRun();
    const r = await runForUfo(deps, { command: argv, timeoutS: 10, signal });
    if (r.exit_code !== 0) return `Error: ${argv[0]} exited with code ${r.exit_code}${r.stderr ? `: ${r.stderr.trim()}` : ''}`;
    return r.stdout.trim();
  } catch (err) {
    return `Error: ${(err as Error).message}`;
  }
}

// A light scheduler env for many-process tests and benches: the real runner and repositories,
// with a test-only `append_line` tool called directly (no gate, no audit) instead of invokeTool.
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { errorResult, outcomeResult, parseArgs } from '../../src/control/envelope.js';
import { createRedactor } from '../../src/policy/redact.js';
import { defineTool, type ToolDef } from '../../src/control/tool.js';
import { createTaskStore, toolMap, type SchedulerEnv, type StepInvoker } from '../../src/execution/scheduler/env.js';
import type { Db } from '../../src/store/db.js';
import { bindPolicy, policyRecordOf } from '../../src/config/policy-record.js';
import { ConfigSchema } from '../../src/config/schema.js';

/** Test-only tool: appends `line` to `file` (O_APPEND, one write per call). */
export function appendLineTool(file: string): ToolDef {
  return defineTool({
    name: 'append_line',
    description: 'test only: append a line to a file',
    input: z.object({ line: z.string() }).strict(),
    output: {},
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    async handler(args) {
      appendFileSync(file, `${args.line}\n`);
      return { data: {} };
    },
  });
}

/** Calls a handler with the same validation and envelope as invokeTool, minus gate and audit. */
export const directInvoke: StepInvoker = async (def, args, signal) => {
  const noSecrets = createRedactor([]);
  try {
    return outcomeResult(await def.handler(parseArgs(def, args), { signal, requestId: 'light', transport: 'task' }), noSecrets);
  } catch (err) {
    return errorResult(err, noSecrets);
  }
};

/** The policy light runners and seeded tasks share (read-only, default config, fixed paths). */
export const LIGHT_POLICY = bindPolicy(
  policyRecordOf(ConfigSchema.parse({}), { profile: 'read-only', workspaceRoots: ['/nonexistent/ws'], readRoots: ['/nonexistent/ws'], writeRoots: [], stateDir: '/nonexistent/state', homeDir: '/nonexistent' }),
);

/** A scheduler env over `db` whose only tool is append_line(file). */
export function lightEnv(db: Db, file: string): SchedulerEnv {
  const tools = toolMap([appendLineTool(file)]);
  return { ...createTaskStore(db), tools: () => tools, invoke: directInvoke, profile: 'read-only', policyFp: LIGHT_POLICY.fingerprint, leaseMs: 30_000, log: () => {} };
}

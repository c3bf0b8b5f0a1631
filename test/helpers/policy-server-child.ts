// A real server process for the cross-policy tests: the app over a given state dir and workspace,
// with its job service (reconcile/queue timer) and task runner started, as `workbench serve` does.
// argv: one JSON {state, workspace, profile, config?, calls?: [{tool, args}]}. Runs the calls in
// order through the real tools and prints their structured results as one JSON line, then idles.
import { pino } from 'pino';
import { createApp } from '../../src/control/app.js';
import { invokeTool } from '../../src/control/invoke.js';
import { startJobs } from '../../src/control/tools/job-handlers.js';
import { ensureScheduler } from '../../src/execution/scheduler/service.js';
import type { Profile } from '../../src/policy/types.js';
import { policyRuntime } from './policy-runtime.js';
import { testConfig } from './tasks-app.js';

interface ChildInput {
  state: string;
  workspace: string;
  profile: Profile;
  config?: Record<string, unknown>;
  calls?: Array<{ tool: string; args: unknown }>;
}

const input = JSON.parse(process.argv[2]!) as ChildInput;
const runtime = policyRuntime(input.state, input.workspace, input.profile);
const app = createApp(testConfig(input.config ?? {}), runtime, pino({ level: 'silent' }));
// As boot.ts does: the (asynchronous) sandbox probe is done before jobs and task steps run.
await app.deps.loadCapabilities();
startJobs(app.deps);
ensureScheduler(app.deps);
const results: unknown[] = [];
for (const call of input.calls ?? []) {
  const def = app.tools.find((t) => t.name === call.tool)!;
  results.push((await invokeTool(app.deps, app.gates, def, call.args, { transport: 'memory' })).structuredContent);
}
process.stdout.write(`${JSON.stringify(results)}\n`);
setInterval(() => undefined, 60_000);

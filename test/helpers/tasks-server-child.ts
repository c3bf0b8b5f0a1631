// Child "server" for the crash tests: creates the app, starts its scheduler and one task, then idles
// until killed. argv: <root> <profile> <steps JSON> [config JSON]. Prints {"task_id"} on stdout.
import { ensureScheduler } from '../../src/execution/scheduler/service.js';
import type { Profile } from '../../src/policy/types.js';
import { taskApp } from './tasks-app.js';

const [root, profile, stepsJson, configJson] = process.argv.slice(2);
const dirs = { root: root!, workspace: `${root}/workspace`, state: `${root}/state`, cleanup() {} };
const t = taskApp(dirs, profile as Profile, configJson ? (JSON.parse(configJson) as Record<string, unknown>) : {});
ensureScheduler(t.app.deps);
const res = await t.call('task_create', { steps: JSON.parse(stepsJson!) as unknown });
process.stdout.write(`${JSON.stringify(res.structuredContent)}\n`);
setInterval(() => {}, 60_000);

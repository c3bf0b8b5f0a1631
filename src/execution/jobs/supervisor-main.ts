// Entry of the detached supervisor process: `node supervisor-main.js`, nothing else on its command
// line. What it runs and under which policy comes from its launcher through the environment.
import { closeInheritedFds } from '../../sandbox/inherited-fds.js';
import { SUPERVISOR_CONTEXT_ENV } from './launch.js';
import { runSupervisor } from './supervisor.js';
import type { SupervisorContext } from './types.js';

// fd 3 is the launcher's handshake pipe; nothing else inherited may reach the job's command.
closeInheritedFds([3]);

/** The launch context, taken out of the environment (the commands never inherit it). */
function takeContext(): SupervisorContext | undefined {
  const raw = process.env[SUPERVISOR_CONTEXT_ENV];
  delete process.env[SUPERVISOR_CONTEXT_ENV];
  try {
    const ctx = raw ? (JSON.parse(raw) as SupervisorContext) : undefined;
    return ctx && typeof ctx.jobId === 'string' && typeof ctx.stateDir === 'string' ? ctx : undefined;
  } catch {
    return undefined;
  }
}

process.title = 'workbench-supervisor';
const ctx = takeContext();
if (!ctx) {
  process.stderr.write(`supervisor-main: started without a launch context (${SUPERVISOR_CONTEXT_ENV}); only a Workbench server starts supervisors\n`);
  process.exit(2);
}
runSupervisor(ctx).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`supervisor failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);

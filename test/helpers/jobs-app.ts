// Real deps (temp state dir, real SQLite, real policy) with the job tools, driven through invokeTool.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema } from '../../src/config/schema.js';
import { createDeps } from '../../src/control/app.js';
import type { WireResult } from '../../src/control/envelope.js';
import { Gate } from '../../src/control/gate.js';
import { invokeTool } from '../../src/control/invoke.js';
import { jobTools } from '../../src/control/tools/jobs.js';
import type { Profile } from '../../src/policy/types.js';

/** Creates deps over temp dirs; `call(tool, args)` returns the wire result. */
export function jobsApp(profile: Profile, jobs: Record<string, number> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'wb-jobs-app-'));
  const ws = join(root, 'ws');
  const state = join(root, 'state');
  mkdirSync(ws);
  mkdirSync(state);
  const config = ConfigSchema.parse({ log: { level: 'silent' }, jobs });
  const runtime = { profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: profile === 'read-only' ? [] : [ws], stateDir: state, homeDir: root };
  const deps = createDeps(config, runtime, pino({ level: 'silent' }));
  const tools = jobTools(deps);
  const gate = () => new Gate({ name: 'test', maxInflight: 8, maxQueue: 8, queueWaitMs: 1000 });
  const gates = { main: gate(), status: gate() };
  const call = async (name: string, args: unknown): Promise<WireResult & { s: Record<string, any> }> => {
    const r = await invokeTool(deps, gates, tools.find((t) => t.name === name)!, args, { transport: 'memory' });
    return Object.assign(r, { s: r.structuredContent as Record<string, any> });
  };
  const close = async () => {
    await deps.close();
    rmSync(root, { recursive: true, force: true });
  };
  return { deps, ws, state, call, close };
}

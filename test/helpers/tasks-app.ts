// Builds a real app (temp state dir, real SQLite) and drives the task tools through invokeTool.
import { pino } from 'pino';
import { ConfigSchema } from '../../src/config/schema.js';
import type { Runtime } from '../../src/config/runtime.js';
import { createApp, type App } from '../../src/control/app.js';
import type { WireResult } from '../../src/control/envelope.js';
import { invokeTool } from '../../src/control/invoke.js';
import type { Profile } from '../../src/policy/types.js';
import { waitFor } from './wait.js';
import type { TempDirs } from './workspace.js';

export interface TaskApp {
  app: App;
  call(name: string, args: unknown): Promise<WireResult>;
  status(id: string): Promise<Record<string, any>>;
  waitTask(id: string, statuses: string[], ms?: number): Promise<Record<string, any>>;
}

/** A config with test-friendly scheduler settings (and any extra sections). */
export function testConfig(extra: Record<string, unknown> = {}) {
  return ConfigSchema.parse({ log: { level: 'silent' }, scheduler: { lease_ms: 2000 }, ...extra });
}

/** The runtime of a test app over temp dirs. */
export function testRuntime(dirs: TempDirs, profile: Profile): Runtime {
  const ws = dirs.workspace;
  return { profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: profile === 'read-only' ? [] : [ws], stateDir: dirs.state, homeDir: dirs.root };
}

/** Creates the app and helpers; close with `app.deps.close()`. */
export function taskApp(dirs: TempDirs, profile: Profile, configExtra: Record<string, unknown> = {}): TaskApp {
  const app = createApp(testConfig(configExtra), testRuntime(dirs, profile), pino({ level: 'silent' }));
  const call = (name: string, args: unknown) => {
    const def = app.tools.find((t) => t.name === name);
    if (!def) throw new Error(`tool ${name} is not registered`);
    return invokeTool(app.deps, app.gates, def, args, { transport: 'memory' });
  };
  const status = async (id: string) => (await call('task_status', { task_id: id })).structuredContent as Record<string, any>;
  const waitTask = (id: string, statuses: string[], ms = 20_000) =>
    waitFor(async () => {
      const s = await status(id);
      return statuses.includes(s.status) ? s : undefined;
    }, ms, `task ${id} to reach ${statuses.join('|')}`);
  return { app, call, status, waitTask };
}

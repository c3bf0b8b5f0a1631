// Shared start-up: config → runtime → logger → app. Every error here is one line and exit 2.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertConfigOwned } from '../config/config-trust.js';
import { findConfigFile, loadConfig } from '../config/load.js';
import { resolveRuntime } from '../config/runtime.js';
import type { Config } from '../config/schema.js';
import { createApp, type App } from '../control/app.js';
import { createLogger } from '../control/logger.js';
import type { GlobalFlags } from './flags.js';

/** Loads config and runtime from flags. */
export function loadSettings(flags: GlobalFlags): { config: Config; runtime: ReturnType<typeof resolveRuntime>; configFile?: string } {
  const configFile = findConfigFile(flags.config);
  // Ownership, mode and links are checked before the file is parsed; resolveRuntime refuses write
  // roots that hold any configuration location (existing or not) once the roots are known.
  if (configFile) assertConfigOwned(configFile);
  const config = loadConfig(configFile);
  const runtime = resolveRuntime(config, { roots: flags.root, profile: flags.profile, configFile });
  return { config, runtime, configFile };
}

/** Builds the app for a serving command. */
export function bootApp(flags: GlobalFlags): App {
  const { config, runtime, configFile } = loadSettings(flags);
  const logger = createLogger(config.log.level);
  logger.info({ event: 'start', profile: runtime.profile, roots: runtime.workspaceRoots, config: configFile ?? null });
  if (existsSync('workbench.toml') && resolve('workbench.toml') !== configFile) {
    logger.warn({ event: 'local_config_ignored', msg: './workbench.toml is not read: configuration comes only from --config or ~/.config/workbench/config.toml' });
  }
  if (runtime.workspaceRoots.length === 0) {
    logger.warn({ event: 'no_workspace_root', msg: 'no workspace root: start Workbench in a project directory or pass --root DIR' });
  }
  const app = createApp(config, runtime, logger);
  // Probe the sandbox, reconcile jobs, resume task flows and prune old audit rows shortly after
  // start-up, off the cold-start path: SQLite, the job store and the scheduler load after the first initialize.
  setTimeout(() => void startPlanes(app), 200).unref();
  return app;
}

// A failure here rejects unhandled and ends the process, as a throw in the timer did before.
async function startPlanes(app: App): Promise<void> {
  // The sandbox probe (asynchronous: it never holds the event loop) is done before any task step runs.
  await app.deps.loadCapabilities();
  const [{ startJobs }, { ensureScheduler }, { startAuditRetention }] = await Promise.all([
    import('../control/tools/job-handlers.js'),
    import('../execution/scheduler/service.js'),
    import('../control/audit-retention.js'),
  ]);
  startJobs(app.deps);
  ensureScheduler(app.deps);
  startAuditRetention(app.deps);
}

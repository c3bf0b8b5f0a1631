// Shared start-up: config → runtime → logger → app. Every error here is one line and exit 2.
import type { Command } from 'commander';
import { findConfigFile, loadConfig } from '../config/load.js';
import { resolveRuntime } from '../config/runtime.js';
import type { Config } from '../config/schema.js';
import type { Profile } from '../policy/types.js';
import { createApp, type App } from '../control/app.js';
import { createLogger } from '../control/logger.js';
import { startJobs } from '../control/tools/jobs.js';
import { ensureScheduler } from '../execution/scheduler/service.js';

export interface GlobalFlags {
  config?: string;
  root?: string[];
  profile?: Profile;
}

/** Adds --config, --root (repeatable) and --profile to a subcommand. */
export function withGlobalFlags(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'TOML config file (default ./workbench.toml, then the XDG config dir)')
    .option('--root <dir>', 'workspace root (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--profile <profile>', 'read-only | workspace-write | full (overrides policy.profile)', (v: string) => {
      if (!['read-only', 'workspace-write', 'full'].includes(v)) throw new Error(`--profile must be read-only, workspace-write or full (got ${v})`);
      return v;
    });
}

/** Loads config and runtime from flags. */
export function loadSettings(flags: GlobalFlags): { config: Config; runtime: ReturnType<typeof resolveRuntime>; configFile?: string } {
  const configFile = findConfigFile(flags.config);
  const config = loadConfig(configFile);
  const runtime = resolveRuntime(config, { roots: flags.root, profile: flags.profile });
  return { config, runtime, configFile };
}

/** Builds the app for a serving command. */
export function bootApp(flags: GlobalFlags): App {
  const { config, runtime, configFile } = loadSettings(flags);
  const logger = createLogger(config.log.level);
  logger.info({ event: 'start', profile: runtime.profile, roots: runtime.workspaceRoots, config: configFile ?? null });
  if (runtime.workspaceRoots.length === 0) {
    logger.warn({ event: 'no_workspace_root', msg: 'no workspace root: start Workbench in a project directory or pass --root DIR' });
  }
  const app = createApp(config, runtime, logger);
  // Reconcile jobs and resume task flows shortly after start-up, off the cold-start path:
  // SQLite and the job store load after the first initialize has been answered.
  setTimeout(() => {
    startJobs(app.deps);
    ensureScheduler(app.deps);
  }, 200).unref();
  return app;
}

/** Exits 2 with a one-line message. */
export function fail(message: string): never {
  process.stderr.write(`workbench: ${message}\n`);
  process.exit(2);
}

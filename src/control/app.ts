// Builds the dependencies every tool receives; heavy pieces (SQLite, sandbox probes) load on first use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from './logger.js';
import type { Config } from '../config/schema.js';
import type { Runtime } from '../config/runtime.js';
import type { PolicyContext } from '../policy/types.js';
import { detectCapabilities, SYSTEM_PATH, type HostCapabilities } from '../sandbox/capabilities.js';
import { createAuditRepo } from '../store/audit-repo.js';
import { openDb } from '../store/db.js';
import { AppError } from '../shared/errors.js';
import type { AppDeps, Store } from './deps.js';
import { realPolicyFs } from '../execution/real-policy-fs.js';
import { redactingLogger, serverRedactor } from './redaction.js';
import { Gate } from './gate.js';
import type { Gates } from './invoke.js';
import { buildTools } from './registry.js';
import type { ToolDef } from './tool.js';

/** The package version (read as JSON: require() would start the CommonJS loader at start-up). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Creates AppDeps for a process; `close()` runs the registered shutdown hooks. */
export function createDeps(config: Config, runtime: Runtime, logger: Logger): AppDeps & { close(): Promise<void> } {
  let store: Store | undefined;
  let caps: HostCapabilities | undefined;
  let probing: Promise<HostCapabilities> | undefined;
  const services = new Map<string, unknown>();
  const closers: Array<() => void | Promise<void>> = [];
  const deps: AppDeps & { close(): Promise<void> } = {
    config,
    runtime,
    // Every log line of the planes passes the same redactor as the tool results.
    logger: redactingLogger(logger, () => serverRedactor(deps)),
    version: packageVersion(),
    store() {
      if (!store) {
        const db = openDb(join(runtime.stateDir, 'workbench.db'));
        store = { db, audit: createAuditRepo(db) };
        closers.push(() => void db.close());
      }
      return store;
    },
    capabilities() {
      if (!caps) throw new AppError('unavailable', 'the sandbox layers are still being detected; retry in a moment');
      return caps;
    },
    loadCapabilities() {
      probing ??= detectCapabilities(runtime.stateDir).then((c) => (caps = c));
      return probing;
    },
    policyContext() {
      // Commands get a private /tmp only when bubblewrap confines them; otherwise /tmp is shared.
      const confined = runtime.profile !== 'full' && config.sandbox.bubblewrap !== 'off' && deps.capabilities().bubblewrap.works;
      return policyContextFor(config, runtime, confined);
    },
    service<T>(name: string, create: () => T): T {
      if (!services.has(name)) services.set(name, create());
      return services.get(name) as T;
    },
    onClose(fn) {
      closers.push(fn);
    },
    now: () => new Date(),
    async close() {
      for (const fn of closers.reverse()) await fn();
    },
  };
  return deps;
}

/** The policy context for a runtime, with the real filesystem behind PolicyFs. */
export function policyContextFor(config: Config, runtime: Runtime, privateTmp = true): PolicyContext {
  return {
    profile: runtime.profile,
    privateTmp,
    workspaceRoots: runtime.workspaceRoots,
    readRoots: runtime.readRoots,
    writeRoots: runtime.writeRoots,
    stateDir: runtime.stateDir,
    homeDir: runtime.homeDir,
    serverPid: process.pid,
    networkAllowed: config.policy.allow_network,
    systemPath: SYSTEM_PATH,
    extraAllowed: config.policy.extra_allowed_commands,
    extraDenied: config.policy.extra_denied_commands,
    fs: realPolicyFs,
  } as PolicyContext;
}

/** Everything a transport needs: deps, the gates, the tool list, and the shutdown signal. */
export interface App {
  deps: AppDeps & { close(): Promise<void> };
  gates: Gates;
  tools: ToolDef[];
  shutdown: AbortController;
}

/** Builds the application for one process. */
export function createApp(config: Config, runtime: Runtime, logger: Logger): App {
  const deps = createDeps(config, runtime, logger);
  const gates: Gates = {
    main: new Gate({ name: 'tool', maxInflight: config.control.max_inflight, maxQueue: config.control.max_queue, queueWaitMs: config.control.queue_wait_ms }),
    status: new Gate({ name: 'status', maxInflight: config.control.status_lane_inflight, maxQueue: config.control.max_queue, queueWaitMs: config.control.queue_wait_ms }),
  };
  deps.service('gates', () => gates);
  return { deps, gates, tools: buildTools(deps), shutdown: new AbortController() };
}

// The dependencies handed to createServer and down to every tool family. Heavy pieces are lazy.
import type { Logger } from './logger.js';
import type { Config } from '../config/schema.js';
import type { Runtime } from '../config/runtime.js';
import type { Db } from '../store/db.js';
import type { AuditRepo } from '../store/audit-repo.js';
import type { PolicyContext } from '../policy/types.js';
import type { HostCapabilities } from '../sandbox/capabilities.js';

export interface Store {
  db: Db;
  audit: AuditRepo;
}

export interface AppDeps {
  config: Config;
  runtime: Runtime;
  logger: Logger;
  version: string;
  /** Opens the database on first use (kept out of the cold-start path). */
  store(): Store;
  /**
   * The sandbox layers detected by loadCapabilities(). Every tool call awaits that first (invokeTool),
   * so handlers read this synchronously; before it finished it throws `unavailable`.
   */
  capabilities(): HostCapabilities;
  /** Detects the sandbox layers once, asynchronously (the probe spawns bwrap: never synchronously on the event loop). */
  loadCapabilities(): Promise<HostCapabilities>;
  /** The policy context for the current runtime. */
  policyContext(): PolicyContext;
  /** Services registered by planes (jobs, scheduler) keyed by name; created lazily. */
  service<T>(name: string, create: () => T): T;
  /** Hooks run at shutdown (close db, stop timers). */
  onClose(fn: () => void | Promise<void>): void;
  now(): Date;
}

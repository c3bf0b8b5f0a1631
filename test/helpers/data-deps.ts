// A real AppDeps for data-plane tests: temp workspace, temp state dir, real capability detection.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema, type Config } from '../../src/config/schema.js';
import type { AppDeps } from '../../src/control/deps.js';
import type { ToolDef, ToolOutcome } from '../../src/control/tool.js';
import { realPolicyFs } from '../../src/execution/real-policy-fs.js';
import { SYSTEM_PATH } from '../../src/sandbox/capabilities.js';
import { hostCaps } from './host-caps.js';

export interface DataDeps {
  deps: AppDeps;
  /** The workspace root (real path). */
  ws: string;
  stateDir: string;
  cleanup(): void;
}

/** Builds deps around a fresh temp workspace; `config` overrides keys of the default config. */
export function makeDataDeps(config: Record<string, unknown> = {}, now = () => new Date()): DataDeps {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'wb-data-ws-')));
  const stateDir = realpathSync(mkdtempSync(join(tmpdir(), 'wb-data-state-')));
  const cfg: Config = ConfigSchema.parse(config);
  const runtime = { profile: cfg.policy.profile, workspaceRoots: [ws], readRoots: [ws, '/var/log'], writeRoots: [], stateDir, homeDir: homedir() };
  const services = new Map<string, unknown>();
  const deps: AppDeps = {
    config: cfg,
    runtime,
    logger: pino({ level: 'silent' }),
    version: 'test',
    store: () => {
      throw new Error('no store in data tests');
    },
    capabilities: () => hostCaps,
    loadCapabilities: async () => hostCaps,
    policyContext: () => ({
      ...runtime,
      serverPid: process.pid,
      networkAllowed: cfg.policy.allow_network,
      systemPath: SYSTEM_PATH,
      fs: { realpath: (p) => tryReal(p), isExecutable: () => false, threadGroupOf: realPolicyFs.threadGroupOf },
    }),
    service: <T>(name: string, create: () => T) => (services.has(name) ? services.get(name) : services.set(name, create()).get(name)) as T,
    onClose: () => undefined,
    now,
  };
  const cleanup = () => {
    rmSync(ws, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { deps, ws, stateDir, cleanup };
}

function tryReal(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** Finds a tool by name in a list of definitions. */
export function tool(tools: ToolDef[], name: string): ToolDef {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

/** Validates args with the tool's own schema (as the invoke layer does) and calls the handler. */
export async function call(tools: ToolDef[], name: string, args: Record<string, unknown>): Promise<ToolOutcome & { data: any }> {
  const t = tool(tools, name);
  const parsed = t.input.parse(args);
  const ac = new AbortController();
  return t.handler(parsed, { signal: ac.signal, requestId: 'test', transport: 'memory' });
}

/** Calls a tool and returns the thrown AppError (fails when it succeeds). */
export async function callError(tools: ToolDef[], name: string, args: Record<string, unknown>): Promise<{ errorClass: string; rule?: string; message: string }> {
  try {
    const r = await call(tools, name, args);
    throw new Error(`${name} ${JSON.stringify(args)} succeeded unexpectedly: ${JSON.stringify(r.data).slice(0, 300)}`);
  } catch (err) {
    if ((err as { errorClass?: string }).errorClass === undefined) throw err;
    return err as { errorClass: string; rule?: string; message: string };
  }
}

// Test fixture for jobs: a temp state dir, a job service over a real SQLite store, and hand-built
// start requests (stages built directly, as the policy would, so these tests do not depend on it).
// The service is bound to a workspace-write policy over <stateDir>/ws unless a test passes another.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SYSTEM_PATH } from '../../src/sandbox/capabilities.js';
import { hostCaps } from './host-caps.js';
import { openDb } from '../../src/store/db.js';
import { bindPolicy, policyRecordOf, type BoundPolicy } from '../../src/config/policy-record.js';
import type { Runtime } from '../../src/config/runtime.js';
import { ConfigSchema } from '../../src/config/schema.js';
import type { Profile } from '../../src/policy/types.js';
import { createJobService, type JobLimits, type JobService, type StartRequest } from '../../src/execution/jobs/service.js';


/** A temp dir holding a state dir (`state`) and, beside it, a workspace (`ws`). */
export function makeStateDir(): { stateDir: string; workspace: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'wb-jobs-'));
  const stateDir = join(root, 'state');
  const workspace = join(root, 'ws');
  mkdirSync(stateDir, { mode: 0o700 });
  mkdirSync(workspace);
  return { stateDir, workspace, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The policy a fixture service runs under: `profile` over the `ws` beside the state dir (default workspace-write), default config. */
export function fixturePolicy(stateDir: string, profile: Profile = 'workspace-write', config: Record<string, unknown> = {}): BoundPolicy {
  const ws = join(dirname(stateDir), 'ws');
  const runtime: Runtime = { profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: profile === 'read-only' ? [] : [ws], stateDir, homeDir: ws };
  return bindPolicy(policyRecordOf(ConfigSchema.parse(config), runtime));
}

/** A job service over `<stateDir>/workbench.db` with the given limits, bound to `policy` (default: fixturePolicy). */
export function makeService(stateDir: string, limits: Partial<JobLimits> = {}, policy = fixturePolicy(stateDir)): JobService & { close: () => void } {
  const dbPath = join(stateDir, 'workbench.db');
  const db = openDb(dbPath);
  const svc = createJobService({
    db, dbPath, stateDir, now: () => new Date(), policy,
    caps: () => hostCaps,
    limits: { maxRunning: 4, maxQueued: 100, maxLogBytes: 256 * 1024 * 1024, retentionDays: 7, maxTotalLogBytes: 4 * 1024 ** 3, minFreeDiskBytes: 0, ...limits },
  });
  return Object.assign(svc, { close: () => db.close() });
}

/** A start request running `sh -c script` (shell: true, what the policy yields in workspace-write; the supervisor decides it again). */
export function shRequest(workspace: string, script: string, extra: Partial<StartRequest> = {}): StartRequest {
  return {
    name: null,
    command: `sh -c ${JSON.stringify(script)}`,
    request: { command: script, shell: true },
    stages: [{ name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', script] }],
    cwd: workspace,
    env: { PATH: SYSTEM_PATH.join(':'), LANG: 'C.UTF-8' },
    network: false,
    timeoutMs: 0,
    stdinOpen: false,
    ...extra,
  };
}

/** Polls `cond` until it is truthy or `ms` passes (then throws naming `what`). */
export async function waitFor<T>(cond: () => T | Promise<T>, ms: number, what = 'condition'): Promise<NonNullable<Exclude<T, false>>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<Exclude<T, false>>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** True when pid is alive (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

/** SIGKILLs a process group / pid, ignoring ESRCH (cleanup by pid, never by name). */
export function killQuietly(pid: number, group = false): void {
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

// Test fixture for jobs: a temp state dir, a job service over a real SQLite store, and hand-built
// start requests (stages built directly, as the policy would, so these tests do not depend on it).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_PATH } from '../../src/sandbox/capabilities.js';
import { hostCaps } from './host-caps.js';
import { openDb } from '../../src/store/db.js';
import { createJobService, type JobLimits, type JobService, type StartRequest } from '../../src/execution/jobs/service.js';


/** A temp state dir plus a workspace dir inside it. */
export function makeStateDir(): { stateDir: string; workspace: string; cleanup: () => void } {
  const stateDir = mkdtempSync(join(tmpdir(), 'wb-jobs-'));
  const workspace = join(stateDir, 'ws');
  mkdirSync(workspace);
  return { stateDir, workspace, cleanup: () => rmSync(stateDir, { recursive: true, force: true }) };
}

/** A job service over `<stateDir>/workbench.db` with the given limits. */
export function makeService(stateDir: string, limits: Partial<JobLimits> = {}): JobService & { close: () => void } {
  const dbPath = join(stateDir, 'workbench.db');
  const db = openDb(dbPath);
  const svc = createJobService({
    db, dbPath, stateDir, now: () => new Date(),
    limits: { maxRunning: 4, maxQueued: 100, maxLogBytes: 256 * 1024 * 1024, retentionDays: 7, maxTotalLogBytes: 4 * 1024 ** 3, minFreeDiskBytes: 0, ...limits },
  });
  return Object.assign(svc, { close: () => db.close() });
}

/** A start request running `/bin/sh -c script` (what the policy yields for sh in workspace-write). */
export function shRequest(workspace: string, script: string, extra: Partial<StartRequest> = {}): StartRequest {
  return {
    name: null,
    command: `sh -c ${JSON.stringify(script)}`,
    stages: [{ name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', script] }],
    cwd: workspace,
    env: { PATH: SYSTEM_PATH.join(':'), LANG: 'C.UTF-8' },
    sandbox: {
      profile: 'workspace-write', readRoots: [workspace], writeRoots: [workspace], workspaceRoots: [workspace], stateDir: join(workspace, '..'),
      homeDir: workspace, cwd: workspace, network: false, useBubblewrap: true, limits: { fileSizeBytes: 0, cpuSeconds: 0 },
    },
    caps: hostCaps,
    cgroupLimits: { pidsMax: 256 },
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

// Starts a job's supervisor as its own detached process: new session, stdin ignored, stdout and
// stderr to supervisor.log, unref'd. A one-shot pipe on fd 3 carries back the command's pid.
// Its argv names no job and no path (ps shows argv to every local user): the job id, the state
// directory and the policy it must run under travel in its environment, which only the launcher sets.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { jobPaths } from './paths.js';
import type { LaunchContext, SupervisorContext } from './types.js';

const SUPERVISOR_MAIN = fileURLToPath(new URL('./supervisor-main.js', import.meta.url));

export interface Launched {
  supPid: number;
  /** Resolves with the command's pid once the supervisor spawned it (null on failure or after `waitMs`). */
  ready: (waitMs: number) => Promise<number | null>;
}

/** The environment variable that carries the SupervisorContext (JSON). */
export const SUPERVISOR_CONTEXT_ENV = 'WORKBENCH_SUPERVISOR_CONTEXT';

/** Spawns the supervisor for job `id` under the launcher's context; throws when the process cannot be created. */
export function launchSupervisor(ctx: LaunchContext, id: string, specSha256: string | null): Launched {
  const paths = jobPaths(ctx.stateDir, id);
  const context: SupervisorContext = { ...ctx, jobId: id, specSha256 };
  const log = openSync(paths.supervisorLog, 'a', 0o600);
  let child;
  try {
    child = spawn(process.execPath, [SUPERVISOR_MAIN], {
      cwd: '/',
      detached: true,
      stdio: ['ignore', log, log, 'pipe'],
      env: { PATH: '/usr/bin:/bin', LANG: process.env.LANG ?? 'C.UTF-8', [SUPERVISOR_CONTEXT_ENV]: JSON.stringify(context) },
    });
  } finally {
    closeSync(log);
  }
  if (!child.pid) throw new Error('the supervisor process could not be created');
  child.unref();
  const pipe = child.stdio[3] as Readable;
  pipe.on('error', () => undefined);
  const answer = readFirstLine(pipe);
  return {
    supPid: child.pid,
    ready: (waitMs) =>
      new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), waitMs);
        void answer.then((pid) => {
          clearTimeout(timer);
          resolve(pid);
        });
      }).finally(() => pipe.destroy()),
  };
}

function readFirstLine(pipe: Readable): Promise<number | null> {
  return new Promise((resolve) => {
    let text = '';
    pipe.on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes('\n')) resolve(parsePid(text));
    });
    pipe.on('close', () => resolve(parsePid(text)));
  });
}

function parsePid(text: string): number | null {
  try {
    const msg = JSON.parse(text.split('\n')[0]!) as { pid?: number | null };
    return typeof msg.pid === 'number' ? msg.pid : null;
  } catch {
    return null;
  }
}

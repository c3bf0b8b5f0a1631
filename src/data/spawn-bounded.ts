// Runs a fixed program without a shell, with a timeout, a byte budget and a minimal environment.
import { spawn } from 'node:child_process';

export interface BoundedRunOptions {
  cwd?: string;
  env?: Record<string, string>;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A verified directory descriptor to run in (handed over as fd 3, cwd /proc/self/fd/3): no path lookup can be raced. */
  cwdFd?: number;
}

export interface BoundedRunResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  truncated: boolean;
  timedOut: boolean;
}

/** A minimal environment for helper programs: fixed PATH, C locale, no inherited secrets. */
export function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: process.env.HOME ?? '/', ...extra };
}

/** Spawns `file args` and collects stdout up to maxBytes; past it (or the timeout) the child is killed. */
export function runBounded(file: string, args: string[], opts: BoundedRunOptions): Promise<BoundedRunResult> {
  return new Promise((resolvePromise, reject) => {
    const pinned = opts.cwdFd !== undefined;
    const child = spawn(file, args, {
      cwd: pinned ? '/proc/self/fd/3' : opts.cwd,
      env: opts.env ?? minimalEnv(),
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe', pinned ? opts.cwdFd! : 'ignore'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let truncated = false;
    let timedOut = false;
    const stop = () => child.kill('SIGKILL');
    const timer = setTimeout(() => ((timedOut = true), stop()), opts.timeoutMs);
    opts.signal?.addEventListener('abort', stop, { once: true });
    child.stdout!.on('data', (b: Buffer) => {
      if (truncated) return;
      const room = opts.maxBytes - size;
      if (b.length > room) ((truncated = true), chunks.push(b.subarray(0, room)), (size += room), stop());
      else (chunks.push(b), (size += b.length));
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (stderr.length < 8192) stderr += b.toString('utf8');
    });
    child.on('error', (err) => (clearTimeout(timer), reject(err)));
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stop);
      resolvePromise({ stdout: Buffer.concat(chunks), stderr: stderr.slice(0, 8192), code, truncated, timedOut });
    });
  });
}

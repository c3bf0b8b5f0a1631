// Probes what bubblewrap can do on this host: namespaces at all, the hardening flags, seccomp.
// Asynchronous (SPEC §3.1): a probe never holds the event loop, whenever it runs.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateFile } from './private-files.js';
import { seccompProgram } from './seccomp.js';

export interface BubblewrapCaps {
  available: boolean;
  path?: string;
  works: boolean;
  reason?: string;
  /** Extra flags this bwrap accepts: an explicit user namespace in which no further one can be made. */
  hardening?: string[];
}

export interface SeccompCaps {
  works: boolean;
  /** Host path of the BPF program the wrapper opens for `bwrap --seccomp`. */
  path?: string;
  reason?: string;
}

const BASE = ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent'];
const HARDENING = ['--unshare-user', '--disable-userns'];

/** Whether bwrap can create its namespaces here, and with which hardening flags. */
export async function probeBubblewrap(path: string | undefined): Promise<BubblewrapCaps> {
  if (!path) return { available: false, works: false, reason: 'bwrap is not installed (apt-get install bubblewrap)' };
  // --disable-userns needs bwrap >= 0.8 and a user namespace; older hosts run without it.
  if ((await trial(path, HARDENING)).ok) return { available: true, path, works: true, hardening: HARDENING };
  const r = await trial(path, []);
  if (r.ok) return { available: true, path, works: true, hardening: [] };
  return { available: true, path, works: false, reason: `bwrap cannot create namespaces here: ${r.reason}` };
}

/**
 * Writes the seccomp program to the private sandbox directory of `stateDir` and checks bwrap loads
 * it. Without a state directory the probe uses a fresh directory of its own (mkdtemp: nobody else
 * can have made it), removed afterwards.
 */
export async function probeSeccomp(bwrap: BubblewrapCaps, stateDir?: string): Promise<SeccompCaps> {
  if (!bwrap.works || !bwrap.path) return { works: false, reason: 'needs bubblewrap' };
  const program = seccompProgram();
  if (!program) return { works: false, reason: `no syscall table for ${process.arch}` };
  const scratch = stateDir ? undefined : mkdtempSync(join(tmpdir(), 'workbench-probe-'));
  let fd: number | undefined;
  try {
    const path = stateDir ? ensurePrivateFile(stateDir, `seccomp-${process.arch}.bpf`, program, 0o400) : join(scratch!, 'seccomp.bpf');
    if (scratch) writeFileSync(path, program, { mode: 0o400, flag: 'wx' });
    fd = openSync(path, 'r');
    const r = await trial(bwrap.path, [...(bwrap.hardening ?? []), '--seccomp', '3'], fd);
    return r.ok ? { works: true, path: stateDir ? path : undefined } : { works: false, reason: `bwrap refused the seccomp program: ${r.reason}` };
  } catch (err) {
    return { works: false, reason: (err as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

const TRIAL_TIMEOUT_MS = 5000;

/** Runs `bwrap BASE EXTRA -- /bin/true`; ok when it exits 0 within the timeout. */
function trial(path: string, extra: string[], fd3?: number): Promise<{ ok: boolean; reason?: string }> {
  return new Promise((resolve) => {
    const child = spawn(path, [...BASE, ...extra, '--', '/bin/true'], {
      timeout: TRIAL_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      stdio: ['ignore', 'ignore', 'pipe', ...(fd3 === undefined ? [] : [fd3])],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString('utf8');
    });
    child.once('error', (err) => resolve({ ok: false, reason: err.message }));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve({ ok: true });
      const why = stderr.trim().split('\n')[0] || (signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` (no answer within ${TRIAL_TIMEOUT_MS} ms)` : ''}` : `exit ${code}`);
      resolve({ ok: false, reason: why });
    });
  });
}

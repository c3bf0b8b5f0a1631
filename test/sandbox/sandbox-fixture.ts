// Shared setup for the sandbox tests: host capabilities (detected once per file), real runs of
// `sh -c SCRIPT` through runCommand with real SandboxOptions, and the temp dirs they use.
import type { TestContext } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, type RunResult, type RunSpec } from '../../src/execution/run.js';
import type { HostCapabilities } from '../../src/sandbox/capabilities.js';
import { hostCaps } from '../helpers/host-caps.js';
import type { SandboxOptions } from '../../src/sandbox/plan.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

/** Host capabilities, detected once per test process. */
export function caps(): HostCapabilities {
  return hostCaps;
}

/** Skips the test (returns true) when bubblewrap cannot confine here, saying why. */
export function skipWithoutBwrap(t: TestContext): boolean {
  const c = caps();
  if (c.bubblewrap.works) return false;
  t.skip(c.bubblewrap.reason ?? 'bubblewrap cannot create namespaces here');
  return true;
}

export interface Box extends TempDirs {
  home: string;
}

/** Temp dirs with a fake home holding credentials: `<root>/home/{.ssh/id_rsa, .aws/credentials}`. */
export function box(): Box {
  const d = tempDirs('wb-sbx-');
  const home = join(d.root, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  return { ...d, home };
}

/** SandboxOptions for a profile over the box's workspace (read roots = workspace + /var/log). */
export function sandboxFor(b: Box, profile: SandboxOptions['profile'], over: Partial<SandboxOptions> = {}): SandboxOptions {
  return {
    profile,
    readRoots: [b.workspace, '/var/log'],
    writeRoots: profile === 'read-only' ? [] : [b.workspace],
    workspaceRoots: [b.workspace],
    stateDir: b.state,
    homeDir: b.home,
    cwd: b.workspace,
    network: false,
    limits: { fileSizeBytes: 64 * 1024 * 1024, cpuSeconds: 0 },
    useBubblewrap: true,
    ...over,
  };
}

/** Runs `sh -c script` confined by `sandbox`. */
export function sh(script: string, sandbox: SandboxOptions, more: Partial<RunSpec> = {}): Promise<RunResult> {
  return runCommand({
    stages: [{ name: 'sh', executable: '/bin/sh', argv: ['sh', '-c', script] }],
    cwd: sandbox.cwd,
    env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LANG: 'C' },
    timeoutMs: 10_000,
    maxOutputBytes: 256 * 1024,
    sandbox,
    caps: caps(),
    cgroupLimits: { memoryBytes: 512 * 1024 * 1024, pidsMax: 128, cpuPercent: 100 },
    ...more,
  });
}

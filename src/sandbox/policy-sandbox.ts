// The confinement of a recorded policy: sandbox options and cgroup limits derived from the
// policy record alone, so whoever runs a job (server or supervisor) confines it the same way.
import type { PolicyRecord } from '../config/policy-record.js';
import type { CgroupLimits } from './cgroup.js';
import type { HostCapabilities } from './capabilities.js';
import type { SandboxOptions } from './plan.js';

const MIB = 1024 * 1024;

/** Whether a decision's `network: true` may be honoured under the policy (full always has the user's network). */
export function networkGranted(policy: PolicyRecord, requested: boolean): boolean {
  if (policy.profile === 'full') return true;
  return requested && policy.profile === 'workspace-write' && policy.networkAllowed;
}

/** Sandbox options for one command run under `policy` in `cwd`. */
export function sandboxFromPolicy(policy: PolicyRecord, cwd: string, network: boolean): SandboxOptions {
  return {
    profile: policy.profile,
    readRoots: [...policy.readRoots],
    writeRoots: [...policy.writeRoots],
    workspaceRoots: [...policy.workspaceRoots],
    stateDir: policy.stateDir,
    homeDir: policy.homeDir,
    cwd,
    network: networkGranted(policy, network),
    useBubblewrap: policy.sandbox.bubblewrap !== 'off',
    limits: { fileSizeBytes: policy.sandbox.fileSizeMaxMb * MIB, cpuSeconds: 0 },
  };
}

/** The cgroup limits of the policy. */
export function cgroupLimitsFromPolicy(policy: PolicyRecord): CgroupLimits {
  const s = policy.sandbox;
  return { memoryBytes: s.memoryMaxMb * MIB, pidsMax: s.pidsMax, cpuPercent: s.cpuPercent };
}

/** Why the policy cannot run a command on this host (sandbox.require without bubblewrap), or undefined. */
export function confinementMissing(policy: PolicyRecord, caps: HostCapabilities): string | undefined {
  if (!policy.sandbox.require || caps.bubblewrap.works) return undefined;
  return `sandbox.require is set but bubblewrap cannot confine commands here: ${caps.bubblewrap.reason ?? 'unknown'}`;
}

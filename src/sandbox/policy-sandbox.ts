// The confinement of a recorded policy: sandbox options and cgroup limits derived from the
// policy record alone, so whoever runs a job (server or supervisor) confines it the same way.
import type { PolicyRecord } from '../config/policy-record.js';
import type { CgroupLimits } from './cgroup.js';
import { promisedLayers, type HostCapabilities } from './capabilities.js';
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
    configPaths: [...(policy.configPaths ?? [])],
  };
}

/** The cgroup limits of the policy. */
export function cgroupLimitsFromPolicy(policy: PolicyRecord): CgroupLimits {
  const s = policy.sandbox;
  return { memoryBytes: s.memoryMaxMb * MIB, pidsMax: s.pidsMax, cpuPercent: s.cpuPercent };
}

/** Why the policy cannot run a command on this host (sandbox.require and a promised layer missing), or undefined. */
export function confinementMissing(policy: PolicyRecord, caps: HostCapabilities): string | undefined {
  if (!policy.sandbox.require) return undefined;
  const missing = promisedLayers(policy.profile).filter((l) => !caps.layers.includes(l) || (l === 'bubblewrap' && policy.sandbox.bubblewrap === 'off'));
  return missing.length === 0 ? undefined : `sandbox.require is set but this host lacks the ${missing.join(', ')} layer(s) the ${policy.profile} profile promises`;
}

/** The host capabilities a run under `policy` spawns with: with sandbox.require, the promised layers are marked required (planSpawn refuses a run that would lack one). */
export function capsForPolicy(policy: PolicyRecord, caps: HostCapabilities): HostCapabilities {
  return policy.sandbox.require ? { ...caps, require: promisedLayers(policy.profile) } : caps;
}

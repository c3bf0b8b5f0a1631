// The runtime of a test server over one workspace root and a state dir (shared by the cross-policy
// server child and the in-process viewers, so both compute the same policy fingerprint).
import type { Runtime } from '../../src/config/runtime.js';
import type { Profile } from '../../src/policy/types.js';

/** `profile` over the single root `workspace`, state in `state`. */
export function policyRuntime(state: string, workspace: string, profile: Profile): Runtime {
  return { profile, workspaceRoots: [workspace], readRoots: [workspace], writeRoots: profile === 'read-only' ? [] : [workspace], stateDir: state, homeDir: workspace };
}

// Types shared by the policy layer and its callers. Policy is pure: any disk facts it needs
// (realpath, executable lookup) come in through a PolicyFs supplied by the caller.
import type { ErrorClass } from '../shared/errors.js';

export type Profile = 'read-only' | 'workspace-write' | 'full';
export const PROFILES: readonly Profile[] = ['read-only', 'workspace-write', 'full'];

/** Disk facts policy needs, injected so policy code itself never touches the disk. */
export interface PolicyFs {
  /** realpath of p, or null when it does not exist (then policy resolves the longest existing parent). */
  realpath(p: string): string | null;
  /** true when p exists and is a regular executable file. */
  isExecutable(p: string): boolean;
  /**
   * The process (thread group) that /proc/<pid> belongs to: a thread's id has its own /proc
   * directory, not listed but openable. null when unknown; absent = every pid is its own process.
   */
  threadGroupOf?(pid: number): number | null;
}

/** Everything a decision depends on besides the request itself. */
export interface PolicyContext {
  profile: Profile;
  /** Workspace roots (absolute, realpath'd). */
  workspaceRoots: string[];
  /** Workspace roots plus policy.read_roots (absolute, realpath'd). */
  readRoots: string[];
  /** Where commands may write: workspace roots in workspace-write, everything in full, none in read-only. */
  writeRoots: string[];
  /** Workbench's own state directory: never readable or writable by commands. */
  stateDir: string;
  /** The invoking user's home directory. */
  homeDir: string;
  /**
   * Whether commands get a private /tmp (bubblewrap confines them). Without it /tmp is the host's
   * shared /tmp and is neither readable nor writable by policy. Undefined = private.
   */
  privateTmp?: boolean;
  /** The server's own pid: its /proc entries are never visible to a request (proc-paths.ts). */
  serverPid?: number;
  /** Whether the config allows `network: true` requests at all. */
  networkAllowed: boolean;
  /** The fixed PATH executables are resolved against. */
  systemPath: string[];
  fs: PolicyFs;
  /** policy.extra_allowed_commands: names added to the read-only allowlist (denylist still applies). */
  extraAllowed?: string[];
  /** policy.extra_denied_commands: names refused in every profile (`cmd.denied`). */
  extraDenied?: string[];
}

/** One stage of a pipeline, ready to spawn. */
export interface Stage {
  /** Basename-normalized command name, e.g. `ls` for `/usr/bin/ls`. */
  name: string;
  /** Absolute path of the executable found on the fixed system PATH. */
  executable: string;
  /** Full argv; argv[0] is the command as given. */
  argv: string[];
}

export interface CommandRequest {
  command: string | string[];
  cwd: string;
  env?: Record<string, string>;
  shell?: boolean;
  network?: boolean;
}

export type Decision =
  | {
      allow: true;
      /** One stage, or several connected by pipes (no shell). With shell: one stage running `sh -c`. */
      stages: Stage[];
      shell: boolean;
      network: boolean;
      /** Rule ids that were consulted and passed, for policy_check explanations. */
      rule: string;
    }
  | {
      allow: false;
      rule: string;
      message: string;
      errorClass: Extract<ErrorClass, 'policy_denied' | 'path_denied' | 'invalid_params' | 'not_found'>;
    };

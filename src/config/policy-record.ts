// The policy a job or task is bound to (SPEC §3.2, §3.4, §4.1a): everything that decides what a
// command may do and how it is confined, as one canonical record with a stable fingerprint.
// Two servers run each other's work only when their fingerprints are equal.
import { createHash } from 'node:crypto';
import type { Runtime } from './runtime.js';
import type { Config } from './schema.js';

/** The sandbox settings a recorded policy carries (bubblewrap on/off, the limits it applies, require). */
export interface PolicySandbox {
  bubblewrap: 'auto' | 'off';
  require: boolean;
  memoryMaxMb: number;
  pidsMax: number;
  cpuPercent: number;
  fileSizeMaxMb: number;
}

/** The recorded policy. Field order does not matter: the fingerprint hashes canonical JSON. */
export interface PolicyRecord {
  version: 1;
  profile: Runtime['profile'];
  workspaceRoots: string[];
  readRoots: string[];
  writeRoots: string[];
  stateDir: string;
  homeDir: string;
  /** policy.allow_network: whether `network: true` may be granted at all. */
  networkAllowed: boolean;
  extraAllowedCommands: string[];
  extraDeniedCommands: string[];
  /** The person's config directory and --config file: read-only to every confined command. */
  configPaths: string[];
  sandbox: PolicySandbox;
}

/** The policy record of a server: its runtime (profile, roots, directories) and its config. */
export function policyRecordOf(config: Config, runtime: Runtime): PolicyRecord {
  const s = config.sandbox;
  return {
    version: 1,
    profile: runtime.profile,
    workspaceRoots: [...runtime.workspaceRoots],
    readRoots: [...runtime.readRoots],
    writeRoots: [...runtime.writeRoots],
    stateDir: runtime.stateDir,
    homeDir: runtime.homeDir,
    networkAllowed: config.policy.allow_network,
    extraAllowedCommands: [...new Set(config.policy.extra_allowed_commands)].sort(),
    extraDeniedCommands: [...new Set(config.policy.extra_denied_commands)].sort(),
    configPaths: [...new Set(runtime.configPaths ?? [])].sort(),
    sandbox: {
      bubblewrap: s.bubblewrap,
      require: s.require,
      memoryMaxMb: s.memory_max_mb,
      pidsMax: s.pids_max,
      cpuPercent: s.cpu_percent,
      fileSizeMaxMb: s.file_size_max_mb,
    },
  };
}

/** JSON with object keys sorted at every level (arrays keep their order: the first root is the default cwd). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 (hex) of the record's canonical JSON. */
export function policyFingerprint(record: PolicyRecord): string {
  return createHash('sha256').update(canonicalJson(record)).digest('hex');
}

/** The record with its fingerprint, as jobs and tasks store it. */
export interface BoundPolicy {
  record: PolicyRecord;
  fingerprint: string;
}

/** Binds a record to its fingerprint. */
export function bindPolicy(record: PolicyRecord): BoundPolicy {
  return { record, fingerprint: policyFingerprint(record) };
}

/** A stored record (JSON text), or null when absent or unreadable. */
export function parseRecord(text: string | null): PolicyRecord | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as PolicyRecord;
    return typeof v === 'object' && v !== null && typeof v.profile === 'string' && Array.isArray(v.workspaceRoots) && typeof v.sandbox === 'object' ? v : null;
  } catch {
    return null;
  }
}

/** Why work bound to `record` waits when the viewer's policy differs (a stable code first). */
export function waitingForPolicy(record: PolicyRecord | null): string {
  if (!record) return 'waiting_for_policy: created before policies were recorded, so no server runs it; cancel it and create it again';
  return `waiting_for_policy: only a server with its policy (${describePolicy(record)}) runs it; this server's policy differs`;
}

/** One line a person can read: which server a piece of work waits for. */
export function describePolicy(record: PolicyRecord | null): string {
  if (!record) return 'a policy that was not recorded (created before policies were recorded)';
  const roots = record.workspaceRoots.length > 0 ? record.workspaceRoots.join(', ') : 'no workspace root';
  const net = record.networkAllowed ? 'network allowed' : 'no network';
  const bwrap = record.sandbox.bubblewrap === 'off' ? 'bubblewrap off' : 'bubblewrap';
  return `profile ${record.profile}, roots ${roots}, ${net}, ${bwrap}`;
}

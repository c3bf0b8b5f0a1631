// Resolves the facts every plane shares at run time: profile, roots, state directory.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Profile } from '../policy/types.js';
import { assertConfigOutsideWriteRoots } from './config-trust.js';
import { ConfigError, SYSTEM_CONFIG, userConfigDir } from './load.js';
import { ensureOwnedDir } from './owned-dir.js';
import { privateSandboxDir } from './state-paths.js';
import type { Config } from './schema.js';

export interface Runtime {
  profile: Profile;
  workspaceRoots: string[];
  readRoots: string[];
  writeRoots: string[];
  stateDir: string;
  homeDir: string;
  /** The person's config directory and the --config file: read-only to every confined command. */
  configPaths?: string[];
}

export interface RuntimeFlags {
  roots?: string[];
  profile?: Profile;
  cwd?: string;
  /** The config file that was read, if any. */
  configFile?: string;
}

/** The state directory: $WORKBENCH_HOME, else $XDG_STATE_HOME/workbench, else ~/.local/state/workbench. */
export function stateDirectory(env = process.env): string {
  if (env.WORKBENCH_HOME) return resolve(env.WORKBENCH_HOME);
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'workbench');
}

export { privateSandboxDir };

/** The state directory, created 0700 or verified as the user's own (start-up stops otherwise). */
export function ownStateDirectory(env = process.env): string {
  const fix = 'Workbench keeps its API token, job records and logs there: remove it, or set WORKBENCH_HOME to a new path only you can write';
  const dir = ensureOwnedDir(stateDirectory(env), 'state directory', fix);
  ensureOwnedDir(privateSandboxDir(dir), 'private sandbox directory', 'Workbench keeps its seccomp program there: remove it (Workbench recreates it)');
  return dir;
}

/** Combines config and flags into the runtime facts; refuses roots that are unsafe without an explicit --root. */
export function resolveRuntime(config: Config, flags: RuntimeFlags = {}): Runtime {
  const cwd = flags.cwd ?? process.cwd();
  const home = homedir();
  const explicit = flags.roots && flags.roots.length > 0;
  const given = explicit ? flags.roots! : config.workspace.roots.length > 0 ? config.workspace.roots : [cwd];
  const candidates = dedupe(given.map((r) => canonicalRoot(resolve(cwd, r))));
  // `/` or the bare home directory is a root only when named with --root: a server started by a
  // client from `/` or `~` gets no workspace (commands then say how to add one) rather than the whole disk.
  const workspaceRoots = explicit ? candidates : candidates.filter((r) => r !== '/' && r !== realOrSelf(home));
  const extra = config.policy.read_roots.map((r) => resolve(r)).filter(isDir).map(realOrSelf);
  const profile = flags.profile ?? config.policy.profile;
  const writeRoots = profile === 'read-only' ? [] : profile === 'full' ? ['/'] : workspaceRoots;
  // Before anything is created: no write root may hold where the person's policy comes from.
  assertConfigOutsideWriteRoots({ profile, writeRoots, workspaceRoots }, configLocations(flags.configFile));
  const stateDir = ownStateDirectory();
  return {
    profile,
    workspaceRoots,
    readRoots: dedupe([...workspaceRoots, ...extra]),
    writeRoots,
    stateDir: realOrSelf(stateDir),
    homeDir: home,
    configPaths: dedupe([userConfigDir(), ...(flags.configFile ? [realOrSelf(flags.configFile)] : [])]),
  };
}

/** Every place a start can read policy from, existing or not: the XDG config, the system config, the --config file. */
export function configLocations(configFile?: string): string[] {
  return dedupe([join(userConfigDir(), 'config.toml'), SYSTEM_CONFIG, ...(configFile ? [resolve(configFile)] : [])]);
}

function canonicalRoot(p: string): string {
  if (!isDir(p)) throw new ConfigError(`workspace root ${p} is not an existing directory; create it or pass another --root`);
  return realOrSelf(p);
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

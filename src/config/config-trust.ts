// A config file is policy: it is read only when nothing but the person (or root) can have written
// it, and never from inside a directory the agent may write to.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { ConfigError } from './load.js';
import type { Runtime } from './runtime.js';
import { exposedLocation } from './config-location.js';
import { untrustedReason } from './trusted-path.js';

const FIX = 'move it to ~/.config/workbench/config.toml (or pass --config with a file only you can write)';

/** Refuses a config file that another user could have written: checked before it is parsed. */
export function assertConfigOwned(file: string): void {
  const real = realOrThrow(file);
  for (const p of new Set([file, real])) {
    const why = untrustedReason(p);
    if (why) throw new ConfigError(`config ${file} is refused: ${why}. A config file is policy: ${FIX}`);
  }
  // Another hard link is another name for the same policy, possibly inside a write root (its path
  // and realpath say nothing about it): the file must be its own.
  if (statSync(real).nlink > 1 || lstatSync(file).nlink > 1) {
    throw new ConfigError(
      `config ${file} is refused: it has other hard links (${statSync(real).nlink} names), and another name could be written by the agent; copy it to a file of its own (cp ${file} NEW && mv NEW ${file})`,
    );
  }
}

/**
 * Refuses a write root that contains where the person's configuration lives — the XDG config dir
 * `workbench/`, the system config and the --config file — whether or not the file exists yet, and
 * through any directory or symbolic link on the way. A confined command could otherwise create it,
 * or rename a parent directory away from under its read-only mount and write a new one, which the
 * next start would read as policy. In `full` everything is writable; the workspace roots are checked.
 */
export function assertConfigOutsideWriteRoots(runtime: Pick<Runtime, 'profile' | 'writeRoots' | 'workspaceRoots'>, locations: readonly string[]): void {
  const roots = runtime.profile === 'full' ? runtime.workspaceRoots : runtime.writeRoots;
  for (const location of locations) {
    const found = exposedLocation(location, roots);
    if (!found) continue;
    throw new ConfigError(
      `write root ${found.root} is refused: it contains ${found.dir}, on the way to your configuration ${location}, so a confined command could create or replace that configuration (renaming a directory defeats a read-only mount) and the next start would read it as policy; ` +
        'use a project directory as the root (not your home directory), or keep the configuration outside every write root (set XDG_CONFIG_HOME, or pass --config with a file outside them)',
    );
  }
}

function realOrThrow(file: string): string {
  try {
    return realpathSync(file);
  } catch (err) {
    throw new ConfigError(`config ${file} cannot be resolved: ${(err as Error).message}`);
  }
}

// The flags every serving and store-reading subcommand shares, and the one-line failure exit.
import type { Command } from 'commander';
import type { Profile } from '../policy/types.js';

export interface GlobalFlags {
  config?: string;
  root?: string[];
  profile?: Profile;
}

/** Adds --config, --root (repeatable) and --profile to a subcommand. */
export function withGlobalFlags(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'TOML config file (default $XDG_CONFIG_HOME/workbench/config.toml, then /etc/workbench/config.toml)')
    .option('--root <dir>', 'workspace root (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--profile <profile>', 'read-only | workspace-write | full (overrides policy.profile)', (v: string) => {
      if (!['read-only', 'workspace-write', 'full'].includes(v)) throw new Error(`--profile must be read-only, workspace-write or full (got ${v})`);
      return v;
    });
}

/** Exits 2 with a one-line message. */
export function fail(message: string): never {
  process.stderr.write(`workbench: ${message}\n`);
  process.exit(2);
}

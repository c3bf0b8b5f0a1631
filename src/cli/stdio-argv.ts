// The cold-start fast path: clients spawn `workbench stdio` for every session, so its plain form is
// parsed here without loading commander. Anything unusual falls back to the full command line.
import type { GlobalFlags } from './flags.js';

const PROFILES = new Set(['read-only', 'workspace-write', 'full']);

/**
 * Flags of `stdio [--root DIR]... [--config FILE] [--profile P]` when argv has exactly that form
 * (values that do not start with '-', a valid profile, --config/--profile at most once), else
 * undefined so that commander parses it (help, errors, `--flag=value` and every other subcommand).
 */
export function parseStdioArgv(args: string[]): GlobalFlags | undefined {
  if (args[0] !== 'stdio') return undefined;
  const flags: GlobalFlags = {};
  for (let i = 1; i < args.length; i += 2) {
    const [name, value] = [args[i], args[i + 1]];
    if (value === undefined || value.startsWith('-')) return undefined;
    if (name === '--root') flags.root = [...(flags.root ?? []), value];
    else if (name === '--config' && flags.config === undefined) flags.config = value;
    else if (name === '--profile' && flags.profile === undefined && PROFILES.has(value)) flags.profile = value as GlobalFlags['profile'];
    else return undefined;
  }
  return flags;
}

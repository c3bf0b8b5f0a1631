// `workbench config init`
import type { Command } from 'commander';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fail } from './flags.js';

/** Registers `workbench config init [file]`; the config schema loads only when the command runs. */
export function registerConfigInit(program: Command): void {
  const config = program.command('config').description('configuration helpers');
  config
    .command('init')
    .description('write a commented config file with every default (stdout with -)')
    .argument('[file]', 'where to write it (default: $XDG_CONFIG_HOME/workbench/config.toml, where Workbench reads it)')
    .option('--force', 'overwrite an existing file')
    .action(async (file: string | undefined, opts: { force?: boolean }) => {
      const [{ renderDefaultConfig }, { userConfigDir }] = await Promise.all([import('../config/template.js'), import('../config/load.js')]);
      const text = renderDefaultConfig();
      if (file === '-') return void process.stdout.write(text);
      const target = file ?? join(userConfigDir(), 'config.toml');
      if (existsSync(target) && !opts.force) fail(`${target} exists; pass --force to overwrite it`);
      // Only the person may write their policy: the directory is 0700 and the file 0600 when we create them.
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, text, { mode: 0o600 });
      process.stderr.write(`wrote ${target}${file ? ' (Workbench reads it only with --config)' : ''}\n`);
    });
}

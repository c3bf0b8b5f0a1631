// `workbench config init`
import type { Command } from 'commander';
import { existsSync, writeFileSync } from 'node:fs';
import { fail } from './flags.js';

/** Registers `workbench config init [file]`; the config schema loads only when the command runs. */
export function registerConfigInit(program: Command): void {
  const config = program.command('config').description('configuration helpers');
  config
    .command('init')
    .description('write a commented config file with every default (stdout with -)')
    .argument('[file]', 'where to write it', 'workbench.toml')
    .option('--force', 'overwrite an existing file')
    .action(async (file: string, opts: { force?: boolean }) => {
      const { renderDefaultConfig } = await import('../config/template.js');
      const text = renderDefaultConfig();
      if (file === '-') return void process.stdout.write(text);
      if (existsSync(file) && !opts.force) fail(`${file} exists; pass --force to overwrite it`);
      writeFileSync(file, text);
      process.stderr.write(`wrote ${file}\n`);
    });
}

// `workbench doctor`: what this host supports and therefore which protections are active.
import type { Command } from 'commander';
import { withGlobalFlags, type GlobalFlags } from './flags.js';

/** Registers `workbench doctor [--json]`; the probes load only when the command runs. */
export function registerDoctor(program: Command): void {
  withGlobalFlags(program.command('doctor').description('report what this host supports (sandbox layers, tools) and what is active'))
    .option('--json', 'print JSON instead of a table')
    .action(async (flags: GlobalFlags & { json?: boolean }) => (await import('./doctor-action.js')).runDoctor(flags));
}

// The full `workbench` command line (commander): every subcommand, --help, and flag errors.
import { Command, Option } from 'commander';
import { registerCommands } from './commands.js';

/** Parses argv with commander and runs the chosen subcommand; a failure is one line and exit 2. */
export async function runProgram(argv: string[]): Promise<void> {
  const program = new Command('workbench')
    .description('A local MCP server that runs structured, bounded, durable actions for AI agents.')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  registerCommands(program, { Option });
  await program.parseAsync(argv);
}

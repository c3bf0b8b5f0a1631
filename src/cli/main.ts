#!/usr/bin/env node
// The `workbench` command: parses flags and hands over to the planes.
import { Command, Option } from 'commander';
import { registerCommands } from './commands.js';

const program = new Command('workbench')
  .description('A local MCP server that runs structured, bounded, durable actions for AI agents.')
  .showHelpAfterError()
  .configureHelp({ sortSubcommands: true });

registerCommands(program, { Option });
program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`workbench: ${err.message}\n`);
  process.exit(2);
});

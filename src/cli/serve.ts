// `workbench serve`
import type { Command } from 'commander';
import { withGlobalFlags } from './flags.js';
import type { ServeFlags } from './serve-action.js';

/** Registers `workbench serve`; the HTTP code loads only when the command runs. */
export function registerServe(program: Command): void {
  withGlobalFlags(program.command('serve').description('serve Streamable HTTP MCP at http://127.0.0.1:8010/mcp (bearer token required)'))
    .option('--host <host>', 'interface to bind (default 127.0.0.1)')
    .option('--port <port>', 'port (0 picks a free one; default 8010)')
    .option('--allow-remote', 'allow binding to a non-loopback address')
    .action(async (flags: ServeFlags) => (await import('./serve-action.js')).runServe(flags));
}

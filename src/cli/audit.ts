// `workbench audit [--limit N] [--json]`: the most recent tool calls from the audit table, newest first.
import type { Command } from 'commander';
import type { AuditFlags } from './audit-action.js';

/** Registers `workbench audit`; SQLite loads only when the command runs. */
export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('list recent tool calls (tool, outcome, error class, duration, transport) from the audit table')
    .option('--limit <n>', 'how many calls (1–10000)', '50')
    .option('--json', 'one JSON object per line')
    .action(async (flags: AuditFlags) => (await import('./audit-action.js')).runAudit(flags));
}

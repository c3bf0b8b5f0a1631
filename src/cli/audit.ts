// `workbench audit [--limit N] [--json]`: the most recent tool calls from the audit table, newest first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { stateDirectory } from '../config/runtime.js';
import { createAuditRepo, type AuditRecord } from '../store/audit-repo.js';
import { openDb } from '../store/db.js';
import { fail } from './boot.js';

interface AuditFlags {
  limit: string;
  json?: boolean;
}

/** Registers `workbench audit`. */
export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('list recent tool calls (tool, outcome, error class, duration, transport) from the audit table')
    .option('--limit <n>', 'how many calls (1–10000)', '50')
    .option('--json', 'one JSON object per line')
    .action((flags: AuditFlags) => {
      const limit = Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) fail(`--limit must be an integer from 1 to 10000 (got ${flags.limit})`);
      const file = join(stateDirectory(), 'workbench.db');
      if (!existsSync(file)) return void process.stderr.write(`workbench: no audit records yet (${file} does not exist)\n`);
      const db = openDb(file);
      try {
        const rows = createAuditRepo(db).recent(limit);
        process.stdout.write(rows.map((r) => (flags.json ? JSON.stringify(r) : formatRow(r))).join('\n') + (rows.length ? '\n' : ''));
      } finally {
        db.close();
      }
    });
}

/** One human line: time, outcome, tool, duration, error class, transport, request id. */
export function formatRow(r: AuditRecord): string {
  const outcome = r.outcome === 'success' ? 'ok' : r.outcome;
  const extra = [r.errorClass, r.truncated ? 'truncated' : undefined].filter(Boolean).join(',');
  return [r.startedAt, outcome.padEnd(7), r.tool.padEnd(16), `${r.durationMs.toFixed(1)}ms`.padStart(10), (extra || '-').padEnd(14), r.transport.padEnd(5), r.requestId].join('  ');
}

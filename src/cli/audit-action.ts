// What `workbench audit` does: read the newest audit rows and print them as lines or JSON.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ownStateDirectory } from '../config/runtime.js';
import { createAuditRepo, type AuditRecord } from '../store/audit-repo.js';
import { escapeControl, safeJson } from '../shared/escape-text.js';
import { openDb } from '../store/db.js';
import { fail } from './flags.js';

/** Flags of `workbench audit`. */
export interface AuditFlags {
  limit: string;
  json?: boolean;
}

/** Prints the most recent `--limit` calls. */
export function runAudit(flags: AuditFlags): void {
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) fail(`--limit must be an integer from 1 to 10000 (got ${flags.limit})`);
  let stateDir: string;
  try {
    stateDir = ownStateDirectory();
  } catch (err) {
    fail((err as Error).message);
  }
  const file = join(stateDir, 'workbench.db');
  if (!existsSync(file)) return void process.stderr.write(`workbench: no audit records yet (${file} does not exist)\n`);
  const db = openDb(file);
  try {
    const rows = createAuditRepo(db).recent(limit);
    process.stdout.write(rows.map((r) => (flags.json ? safeJson(r) : formatRow(r))).join('\n') + (rows.length ? '\n' : ''));
  } finally {
    db.close();
  }
}

/** One human line: time, outcome, tool, duration, error class, transport, request id. */
export function formatRow(r: AuditRecord): string {
  const outcome = r.outcome === 'success' ? 'ok' : r.outcome;
  const extra = [r.errorClass, r.truncated ? 'truncated' : undefined].filter(Boolean).join(',');
  const fields = [r.startedAt, outcome.padEnd(7), r.tool.padEnd(16), `${r.durationMs.toFixed(1)}ms`.padStart(10), (extra || '-').padEnd(14), r.transport.padEnd(5), r.requestId];
  // Tool names and request ids come from clients: escaped, so they cannot forge audit lines.
  return fields.map((f) => escapeControl(String(f))).join('  ');
}

// Audit retention (audit.retention_days): rows older than the retention are deleted at start-up and
// then every minute, in small batches and at most PASS_ROWS per pass, so a pass never holds the
// database's write lock for long; a backlog larger than one pass is worked off over the next passes.
import type { AuditRepo } from '../store/audit-repo.js';
import type { AppDeps } from './deps.js';

const EVERY_MS = 60_000;
const BATCH_ROWS = 1000;
const PASS_ROWS = 20_000;

/** Deletes audit rows older than `days` (at most `maxRows`); returns how many went. */
export function pruneAudit(audit: AuditRepo, days: number, now: Date, maxRows = PASS_ROWS): number {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let pruned = 0;
  while (pruned < maxRows) {
    const batch = Math.min(BATCH_ROWS, maxRows - pruned);
    const n = audit.pruneBefore(cutoff, batch);
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

/** Runs a pass now and every minute on an unref'd timer, stopped at shutdown. */
export function startAuditRetention(deps: AppDeps): void {
  const pass = () => {
    try {
      const rows = pruneAudit(deps.store().audit, deps.config.audit.retention_days, deps.now());
      if (rows > 0) deps.logger.info({ event: 'audit_pruned', rows });
    } catch (err) {
      deps.logger.error({ event: 'audit_prune_failed', err: (err as Error).message });
    }
  };
  pass();
  const timer = setInterval(pass, EVERY_MS);
  timer.unref();
  deps.onClose(() => clearInterval(timer));
}

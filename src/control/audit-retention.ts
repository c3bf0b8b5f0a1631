// Audit retention (audit.retention_days): rows older than the retention are deleted at start-up and
// then every minute, in small batches and at most PASS_ROWS per pass, so a pass never holds the
// database's write lock for long; a backlog larger than one pass is worked off over the next passes.
import type { AuditRepo } from '../store/audit-repo.js';
import { pruneInBatches, retentionCutoff, runPeriodically } from '../shared/bounded-prune.js';
import type { AppDeps } from './deps.js';

const EVERY_MS = 60_000;
const BATCH_ROWS = 1000;
const PASS_ROWS = 20_000;

/** Deletes audit rows older than `days` (at most `maxRows`); returns how many went. */
export function pruneAudit(audit: AuditRepo, days: number, now: Date, maxRows = PASS_ROWS): number {
  const cutoff = retentionCutoff(days, now);
  return pruneInBatches((limit) => audit.pruneBefore(cutoff, limit), maxRows, BATCH_ROWS);
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
  runPeriodically(pass, EVERY_MS, (stop) => deps.onClose(stop));
}

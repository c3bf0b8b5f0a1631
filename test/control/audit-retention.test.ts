// audit.retention_days: old audit rows are pruned at start-up and periodically, in bounded passes;
// one audit row stores a bounded amount whatever the call carried.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pruneAudit } from '../../src/control/audit-retention.js';
import { AUDIT_FIELD_CAPS, createAuditRepo, type AuditRecord } from '../../src/store/audit-repo.js';
import { openDb, type Db } from '../../src/store/db.js';
import { budgetApp } from '../helpers/jobs-budget-app.js';
import { connectStdio } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const DAY = 86_400_000;

function row(startedAt: Date, i: number): AuditRecord {
  return { requestId: `r${i}`, transport: 'memory', tool: 'policy_check', startedAt: startedAt.toISOString(), durationMs: 1, outcome: 'success', resultBytes: 10, truncated: false };
}

function seed(db: Db, daysAgo: number, n: number): void {
  const repo = createAuditRepo(db);
  const at = new Date(Date.now() - daysAgo * DAY);
  db.transaction(() => {
    for (let i = 0; i < n; i++) repo.insert(row(at, i));
  })();
}

const countOlderThan = (db: Db, days: number) =>
  (db.prepare('SELECT count(*) AS n FROM audit WHERE started_at < ?').get(new Date(Date.now() - days * DAY).toISOString()) as { n: number }).n;
const countAll = (db: Db) => (db.prepare('SELECT count(*) AS n FROM audit').get() as { n: number }).n;

describe('audit retention', () => {
  const all: TempDirs[] = [];
  after(() => all.forEach((d) => d.cleanup()));

  test('a pass deletes only rows older than the retention, at most its bound; later passes finish the backlog', () => {
    const dirs = tempDirs('wb-audit-');
    all.push(dirs);
    const db = openDb(`${dirs.state}/workbench.db`);
    try {
      seed(db, 40, 2500);
      seed(db, 29, 7);
      const repo = createAuditRepo(db);
      assert.equal(pruneAudit(repo, 30, new Date(), 1000), 1000, 'one pass is bounded');
      assert.equal(countOlderThan(db, 30), 1500);
      assert.equal(pruneAudit(repo, 30, new Date()), 1500);
      assert.equal(countOlderThan(db, 30), 0);
      assert.equal(countAll(db), 7, 'rows inside the retention are kept');
      assert.equal(pruneAudit(repo, 30, new Date()), 0);
    } finally {
      db.close();
    }
  });

  test('a real server prunes old rows at start-up (audit.retention_days from the config)', async () => {
    const dirs = tempDirs('wb-audit-srv-');
    all.push(dirs);
    const db = openDb(`${dirs.state}/workbench.db`);
    seed(db, 12, 300);
    seed(db, 2, 5);
    db.close();
    const srv = await connectStdio({ workspace: dirs.workspace, state: dirs.state, configToml: '[audit]\nretention_days = 10\n' });
    const check = openDb(`${dirs.state}/workbench.db`);
    try {
      await waitFor(() => countOlderThan(check, 10) === 0, 15_000, 'the server to prune the old audit rows');
      assert.ok(countOlderThan(check, 1) >= 5, 'the recent rows are kept');
    } finally {
      check.close();
      await srv.close();
    }
  });
});

describe('audit row size', () => {
  test('huge arguments and request ids are cut, with a marker, when log.args = true', async () => {
    const dirs = tempDirs('wb-audit-cap-');
    const app = budgetApp({ profile: 'read-only', ws: dirs.workspace, state: dirs.state, home: dirs.root, config: { log: { level: 'silent', args: true } } });
    try {
      const canary = 'CANARY-END-OF-HUGE-ARG';
      const big = `${'é'.repeat(300_000)}${canary}`;
      await app.call('job_status', { job_id: big }, { requestId: `${'id'.repeat(50_000)}${canary}` });
      const [rec] = createAuditRepo(app.deps.store().db).recent(1);
      assert.ok(rec);
      for (const [field, cap] of [['args', AUDIT_FIELD_CAPS.args], ['requestId', AUDIT_FIELD_CAPS.requestId]] as const) {
        const v = rec[field]!;
        assert.ok(Buffer.byteLength(v) <= cap + 80, `${field} holds ${Buffer.byteLength(v)} bytes`);
        assert.match(v, /…\[workbench: cut, \d+ of \d+ bytes dropped\]$/);
        assert.ok(!v.includes(canary), `${field} kept bytes past its cap`);
        assert.ok(!v.includes('\uFFFD'), `${field} was cut inside a character`);
      }
      // Small values are stored as they were.
      await app.call('job_status', { job_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, { requestId: 'small-id' });
      const [small] = createAuditRepo(app.deps.store().db).recent(1);
      assert.equal(small!.requestId, 'small-id');
      assert.equal(small!.args, '{"job_id":"01ARZ3NDEKTSV4RRFFQ69G5FAV"}');
    } finally {
      await app.close();
      dirs.cleanup();
    }
  });
});

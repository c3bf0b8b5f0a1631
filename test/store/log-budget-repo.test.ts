// The job-log ledger: grants never exceed the budget across connections, settling only lowers,
// a pruned job takes its reservation with it, and the migration seeds jobs that already exist.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { migrate, openDb, type Db } from '../../src/store/db.js';
import { createLogBudgetRepo } from '../../src/store/log-budget-repo.js';
import { tempDirs } from '../helpers/workspace.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url));
const dirs = tempDirs('wb-ledger-');
after(() => dirs.cleanup());

function addJob(db: Db, id: string, status = 'running', stdout = 0, dropped = 0): void {
  db.prepare("INSERT INTO jobs (id, command, status, created_at, stdout_bytes, stdout_dropped) VALUES (?, 'x', ?, '2026-01-01T00:00:00Z', ?, ?)").run(id, status, stdout, dropped);
}

test('two connections (two servers/supervisors) interleaving grants never exceed the budget', () => {
  const file = join(dirs.state, 'a.db');
  const [a, b] = [openDb(file), openDb(file)];
  try {
    addJob(a, 'J1');
    addJob(a, 'J2');
    const [ra, rb] = [createLogBudgetRepo(a), createLogBudgetRepo(b)];
    let granted = 0;
    for (let i = 0; i < 40; i++) granted += ra.reserve('J1', 300, 10_000) + rb.reserve('J2', 700, 10_000);
    assert.equal(granted, 10_000);
    assert.equal(ra.total(), 10_000);
    assert.equal(rb.reserve('J2', 1, 10_000), 0, 'a full budget grants nothing');
    rb.settle('J2', 1);
    assert.ok(ra.total() < 10_000, 'settling frees what was not written');
    ra.settle('J1', 1e9);
    assert.equal(ra.total(), (a.prepare("SELECT reserved FROM job_log_budget WHERE job_id = 'J1'").get() as { reserved: number }).reserved + 1, 'settling never raises');
    a.prepare("DELETE FROM jobs WHERE id = 'J1'").run();
    assert.equal(ra.total(), 1, "a deleted job's reservation goes with its row");
  } finally {
    a.close();
    b.close();
  }
});

test('the migration seeds the ledger with what existing jobs stored', () => {
  const old = join(dirs.root, 'old-migrations');
  mkdirSync(old);
  for (const f of readdirSync(MIGRATIONS).filter((f) => f < '0004')) copyFileSync(join(MIGRATIONS, f), join(old, f));
  const db = openAt(join(dirs.state, 'legacy.db'), old);
  try {
    addJob(db, 'E1', 'succeeded', 5000, 1000);
    addJob(db, 'Q1', 'queued');
    migrate(db, MIGRATIONS);
    assert.equal(createLogBudgetRepo(db).total(), 4000);
  } finally {
    db.close();
  }
});

/** A database migrated only with the files of `dir` (an older schema). */
function openAt(file: string, dir: string): Db {
  const scratch = openDb(join(dirs.state, 'scratch.db'));
  const Sqlite = scratch.constructor as new (f: string) => Db;
  scratch.close();
  const db = new Sqlite(file);
  db.pragma('foreign_keys = ON');
  migrate(db, dir);
  return db;
}

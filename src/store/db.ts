// Opens the SQLite store (WAL) and applies the append-only migrations tracked by user_version.
import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export type Db = Database.Database;

// better-sqlite3 (native addon) is required on the first open, not at start-up.
const require = createRequire(import.meta.url);

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Opens (creating if needed) the database at `file` and brings its schema up to date. */
export function openDb(file: string): Db {
  const Sqlite = require('better-sqlite3') as typeof Database;
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Applies every migration file whose number is above the database's user_version, each in a transaction. */
export function migrate(db: Db, dir = MIGRATIONS_DIR): void {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const file of files) {
    const version = Number(file.slice(0, 4));
    if (version <= current) continue;
    const sql = readFileSync(join(dir, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    }).immediate();
  }
}

// One light runner process: claims steps from <db> until no task is running, appending each step's
// line to <file>. argv: <db> <file> [slots]. Used by the concurrency test and the bench.
import { createRunner } from '../../src/execution/scheduler/runner.js';
import { openDb } from '../../src/store/db.js';
import { lightEnv } from './tasks-light-runner.js';

const [dbPath, file, slots] = process.argv.slice(2);
const db = openDb(dbPath!);
// Fifty writers share one WAL: wait for the write lock rather than fail a claim.
db.pragma('busy_timeout = 60000');
const runner = createRunner({ env: lightEnv(db, file!), slots: Number(slots ?? 1), pollMs: 10 });
const running = db.prepare("SELECT count(*) AS n FROM tasks WHERE status = 'running'");
runner.start();
const timer = setInterval(() => {
  if ((running.get() as { n: number }).n > 0) return;
  clearInterval(timer);
  void runner.stop().then(() => {
    db.close();
    process.exit(0);
  });
}, 100);

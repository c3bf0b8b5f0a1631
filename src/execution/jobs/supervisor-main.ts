// Entry of the detached supervisor process: `node supervisor-main.js <jobdir>`.
import { runSupervisor } from './supervisor.js';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: supervisor-main <jobdir>\n');
  process.exit(2);
}
runSupervisor(dir).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`supervisor failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);

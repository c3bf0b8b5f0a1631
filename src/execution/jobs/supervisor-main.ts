// Entry of the detached supervisor process: `node supervisor-main.js <jobdir>`.
import { closeInheritedFds } from '../../sandbox/inherited-fds.js';
import { runSupervisor } from './supervisor.js';

// fd 3 is the launcher's handshake pipe; nothing else inherited may reach the job's command.
closeInheritedFds([3]);

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

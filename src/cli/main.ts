#!/usr/bin/env node
// The `workbench` command: parses flags and hands over to the planes.
// A plain `workbench stdio …` skips commander (cold start); everything else goes through it.
import { closeInheritedFds } from '../sandbox/inherited-fds.js';
import { parseStdioArgv } from './stdio-argv.js';

// Before anything can be spawned: no descriptor this process inherited reaches a command or job.
closeInheritedFds();
const stdioFlags = parseStdioArgv(process.argv.slice(2));
const run = stdioFlags
  ? import('./stdio-action.js').then(({ runStdio }) => runStdio(stdioFlags))
  : import('./program.js').then(({ runProgram }) => runProgram(process.argv));
run.catch((err: Error) => {
  process.stderr.write(`workbench: ${err.message}\n`);
  process.exit(2);
});

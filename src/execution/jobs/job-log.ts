// One entry point for reading a job's output: stdout, stderr, or the combined (write-order) view.
import { readCombinedWindow } from './combined-index.js';
import { jobPaths } from './paths.js';
import { readLogWindow, type LogWindow, type WindowRequest } from './read-log-window.js';

export type OutputStream = 'stdout' | 'stderr' | 'combined';

/** Reads a bounded window of one of the job's output streams. */
export function readJobLog(stateDir: string, id: string, stream: OutputStream, req: WindowRequest): LogWindow {
  const paths = jobPaths(stateDir, id);
  if (stream === 'combined') return readCombinedWindow(paths.combinedIndex, [paths.log('stdout'), paths.log('stderr')], req);
  return readLogWindow(paths.log(stream), req);
}

// Where a job's files live: <state>/jobs/<id>/…
import { join } from 'node:path';

export type LogStream = 'stdout' | 'stderr';

/** The files of one job directory. */
export interface JobPaths {
  dir: string;
  spec: string;
  status: string;
  supervisor: string;
  supervisorLog: string;
  cancel: string;
  stdin: string;
  stdinClose: string;
  /** Write-order index over stdout.log and stderr.log (the combined stream). */
  combinedIndex: string;
  log(stream: LogStream): string;
}

/** The jobs root under the state directory. */
export function jobsRoot(stateDir: string): string {
  return join(stateDir, 'jobs');
}

/** Paths for job `id`; job ids are ULIDs, checked so an id can never name another directory. */
export function jobPaths(stateDir: string, id: string): JobPaths {
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) throw new Error(`not a job id: ${id}`);
  return jobPathsOfDir(join(jobsRoot(stateDir), id));
}

/** Paths inside an existing job directory (the supervisor gets only the directory). */
export function jobPathsOfDir(dir: string): JobPaths {
  return {
    dir,
    spec: join(dir, 'spec.json'),
    status: join(dir, 'status.json'),
    supervisor: join(dir, 'supervisor.json'),
    supervisorLog: join(dir, 'supervisor.log'),
    cancel: join(dir, 'cancel'),
    stdin: join(dir, 'stdin'),
    stdinClose: join(dir, 'stdin.close'),
    combinedIndex: join(dir, 'combined.idx'),
    log: (stream) => join(dir, `${stream}.log`),
  };
}

// Retention: ended jobs older than jobs.retention_days lose their row and directory. Never an active job.
import { rmSync } from 'node:fs';
import type { JobsRepo } from '../../store/jobs-repo.js';
import { jobPaths } from './paths.js';

/** Deletes ended jobs whose end is older than `days`; returns how many were pruned. */
export function pruneEndedJobs(repo: JobsRepo, stateDir: string, days: number, now: Date): number {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const ids = repo.endedBefore(cutoff);
  for (const id of ids) {
    repo.deleteEnded(id);
    rmSync(jobPaths(stateDir, id).dir, { recursive: true, force: true });
  }
  return ids.length;
}

// The check job_start makes before it queues a job: the state directory's job logs are under
// jobs.max_total_log_bytes and its filesystem has more free space than jobs.min_free_disk_bytes.
import { AppError } from '../../shared/errors.js';
import type { LogBudgetRepo } from '../../store/log-budget-repo.js';
import { freeDiskBytes, type LogBudgetLimits } from './log-budget.js';

/** Throws too_large, naming the limit, when a new job could not write a byte of log. */
export function assertLogHeadroom(repo: LogBudgetRepo, stateDir: string, limits: LogBudgetLimits): void {
  const used = repo.total();
  if (used >= limits.maxTotalBytes) {
    throw new AppError('too_large', `the job logs of this state directory already hold ${used} bytes, the jobs.max_total_log_bytes limit is ${limits.maxTotalBytes}`, {
      rule: 'jobs.max_total_log_bytes',
      hint: 'cancel jobs you no longer need (job_cancel); finished jobs and their logs are removed after jobs.retention_days (lower it to prune sooner); or raise jobs.max_total_log_bytes in the config',
    });
  }
  const free = freeDiskBytes(stateDir);
  if (free < limits.minFreeDiskBytes) {
    throw new AppError('too_large', `only ${free} bytes are free on the state directory's filesystem, under the jobs.min_free_disk_bytes floor of ${limits.minFreeDiskBytes}`, {
      rule: 'jobs.min_free_disk_bytes',
      hint: 'free disk space or remove finished jobs (jobs.retention_days), or lower jobs.min_free_disk_bytes in the config',
    });
  }
}

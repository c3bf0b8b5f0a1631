// What a server may do with a job bound to another policy: report on it (with a note saying what
// it waits for), cancel it — but never start it or feed its stdin.
import { parseRecord, waitingForPolicy } from '../../config/policy-record.js';
import { AppError } from '../../shared/errors.js';
import type { Job } from './types.js';

/** The note a queued job of another policy gets in this server's views, or undefined. */
export function policyWaitNote(job: Job, viewerFp: string | undefined): string | undefined {
  if (viewerFp === undefined || job.status !== 'queued' || job.policyFp === viewerFp) return undefined;
  return waitingForPolicy(parseRecord(job.policy));
}

/** Refuses an action that would steer a job under another policy than the caller's. */
export function requireJobPolicy(job: Job, callerFp: string, what: string): void {
  if (job.policyFp === callerFp) return;
  throw new AppError('policy_denied', `job ${job.id} is bound to another policy; this server cannot ${what} it`, {
    rule: 'job.other_policy',
    hint: 'use a server started with the policy the job was created under (same profile, roots, network and sandbox settings)',
  });
}

// The policy this server runs under, as the record jobs and tasks are bound to (computed once).
import { bindPolicy, policyRecordOf, type BoundPolicy } from '../config/policy-record.js';
import type { AppDeps } from './deps.js';

/** The server's bound policy: recorded with the work it creates, compared before it claims work. */
export function serverPolicy(deps: Pick<AppDeps, 'config' | 'runtime' | 'service'>): BoundPolicy {
  return deps.service('policy', () => bindPolicy(policyRecordOf(deps.config, deps.runtime)));
}

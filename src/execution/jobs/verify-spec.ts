// The supervisor's check of spec.json against what its launcher handed it: the file is in the
// state directory, so it is read as untrusted data. Only the request part is taken from it
// (command, cwd, env, network, timeout, stdin); a spec bound to another policy, for another job,
// with confinement fields of its own, malformed, or changed since its server wrote it (sha256
// recorded in the job's row, handed over by the launcher) is refused and the job is not run.
// The row and its sha256 are in the same state directory, so passing these checks admits nothing
// by itself: the supervisor then decides the request again under the recorded policy
// (redecide-spec.ts) and runs only the stages its own decision produces.
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { policyFingerprint } from '../../config/policy-record.js';
import { sha256Hex } from './atomic-write.js';
import { redecideSpec } from './redecide-spec.js';
import type { JobSpec, SupervisorContext } from './types.js';

const SPEC_KEYS = new Set(['id', 'policyFp', 'request', 'stages', 'cwd', 'env', 'network', 'timeoutMs', 'stdinOpen']);

/** Thrown when a spec must not run; the message becomes the job's note. */
export class SpecRefused extends Error {}

/** Returns the spec (the bytes of spec.json) when it may run under the launcher's policy; throws SpecRefused saying why not. */
export function verifySpec(ctx: SupervisorContext, bytes: Buffer | undefined): JobSpec {
  if (policyFingerprint(ctx.policy) !== ctx.policyFp) refuse('the launcher handed a policy whose fingerprint does not match');
  const raw = parse(bytes);
  if (!isRecord(raw)) refuse('spec.json is missing or not a JSON object');
  const extra = Object.keys(raw).filter((k) => !SPEC_KEYS.has(k));
  if (extra.length > 0) refuse(`spec.json carries fields the supervisor never takes from a file (${extra.join(', ')}); confinement comes only from the recorded policy`);
  if (raw.id !== ctx.jobId) refuse('spec.json names another job');
  if (raw.policyFp !== ctx.policyFp) refuse(`spec.json is not bound to the policy recorded for this job (fingerprint ${short(raw.policyFp)}, recorded ${short(ctx.policyFp)})`);
  const spec = raw as unknown as JobSpec;
  if (!isRequest(spec.request)) refuse('spec.json carries no valid request (command and shell flag); a job queued by an older version must be created again');
  if (!Array.isArray(spec.stages) || spec.stages.length === 0 || !spec.stages.every(isStage)) refuse('spec.json has malformed stages');
  if (!isRecord(spec.env) || !Object.values(spec.env).every((v) => typeof v === 'string')) refuse('spec.json has a malformed env');
  if (typeof spec.network !== 'boolean' || typeof spec.stdinOpen !== 'boolean') refuse('spec.json has malformed flags');
  if (!Number.isInteger(spec.timeoutMs) || spec.timeoutMs < 0) refuse('spec.json has a malformed timeout');
  checkCwd(ctx, spec.cwd);
  // Last, so the checks above name what was wrong with a spec that was also changed.
  if (!ctx.specSha256 || sha256Hex(bytes!) !== ctx.specSha256) refuse('spec.json was changed after its server wrote it (its sha256 differs from the one recorded with the job)');
  return { ...spec, stages: redecideSpec(ctx, spec, refuse) };
}

function parse(bytes: Buffer | undefined): unknown {
  try {
    return bytes ? (JSON.parse(bytes.toString('utf8')) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function checkCwd(ctx: SupervisorContext, cwd: unknown): void {
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) refuse('spec.json has no absolute cwd');
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    refuse(`cwd ${cwd} no longer exists`);
  }
  const roots = ctx.policy.profile === 'full' ? ['/'] : ctx.policy.readRoots;
  if (!roots.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : `${r}/`))) refuse(`cwd ${cwd} is outside the recorded policy's read roots`);
  const state = ctx.policy.stateDir;
  if (real === state || real.startsWith(`${state}/`)) refuse(`cwd ${cwd} is inside the state directory`);
}

function isStage(s: unknown): boolean {
  if (!isRecord(s) || typeof s.name !== 'string' || typeof s.executable !== 'string' || !isAbsolute(s.executable)) return false;
  return Array.isArray(s.argv) && s.argv.length > 0 && s.argv.every((a) => typeof a === 'string');
}

function isRequest(r: unknown): boolean {
  if (!isRecord(r) || typeof r.shell !== 'boolean') return false;
  const c = r.command;
  return typeof c === 'string' || (Array.isArray(c) && c.length > 0 && c.every((a) => typeof a === 'string'));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function short(fp: unknown): string {
  return typeof fp === 'string' ? fp.slice(0, 12) : 'none';
}

function refuse(reason: string): never {
  throw new SpecRefused(`refused by the supervisor: ${reason}; the job was not run`);
}

// The supervisor's own policy decision on a spec (SPEC §4.1a). Everything the state directory says
// about admission (the row, its policy, the spec's sha256) can be written by whoever can write that
// directory, so the supervisor does not take the spec's word for what may run: it decides the
// spec's request again under the policy its launcher handed over, runs the stages that decision
// produces, and refuses an environment that policy would refuse (loader, shell, interpreter and git
// injection variables), except the few variables a server itself sets, and those only with the
// exact values it sets.
import { dirname } from 'node:path';
import type { PolicyRecord } from '../../config/policy-record.js';
import { decide } from '../../policy/decide.js';
import { PolicyDenial } from '../../policy/denial.js';
import { checkEnv } from '../../policy/env-rules.js';
import type { PolicyContext, Stage } from '../../policy/types.js';
import { SYSTEM_PATH, type HostCapabilities } from '../../sandbox/capabilities.js';
import { realPolicyFs } from '../real-policy-fs.js';
import type { JobSpec, LaunchContext } from './types.js';

/** A refusal reason (the caller wraps it into the job's note). */
export type Refusal = (reason: string) => never;

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'tcsh', 'csh']);

/**
 * The variables a server puts into every job's environment itself (run-command-exec.ts commandEnv):
 * each is accepted only with the value that server would have set under this policy.
 */
const SERVER_SET: Readonly<Record<string, (value: string, policy: PolicyRecord, ctx: LaunchContext) => boolean>> = {
  PATH: (v) => v === SYSTEM_PATH.join(':'),
  HOME: (v, p, ctx) => v === p.homeDir || v === ctx.serverHome,
  SHELL: (v) => SYSTEM_PATH.includes(dirname(v)) && SHELLS.has(v.slice(dirname(v).length + 1)),
  // The same ceilings as data/git's gitCeilings (the roots' parents); a drift refuses, it never admits more.
  GIT_CEILING_DIRECTORIES: (v, p) => v === [...new Set(p.readRoots.map((r) => dirname(r)).filter((d) => d !== '/' || p.readRoots.includes('/')))].join(':'),
};

/** The stages the recorded policy makes of the spec's request; refuses the spec (nothing runs) when it would not run it as recorded. */
export function redecideSpec(ctx: LaunchContext, spec: JobSpec, refuse: Refusal): Stage[] {
  const { policy, caps } = ctx;
  checkSpecEnv(ctx, spec.env, refuse);
  const { command, shell } = spec.request;
  const d = decide({ command, shell, cwd: spec.cwd, network: spec.network }, policyContextOf(policy, caps), { mode: 'job' });
  if (!d.allow) refuse(`the recorded ${policy.profile} policy refuses its command (${d.rule}): ${d.message}`);
  if (d.network !== spec.network) refuse('its network flag is not what the recorded policy grants its command');
  const same = d.stages.length === spec.stages.length && d.stages.every((s, i) => sameArgv(s.argv, spec.stages[i]!.argv));
  if (!same) refuse(`its stages are not what the recorded ${policy.profile} policy makes of its command`);
  return d.stages;
}

/** The spec's environment, re-checked: server-set variables with their exact values, every other one by checkEnv. */
function checkSpecEnv(ctx: LaunchContext, env: Record<string, string>, refuse: Refusal): void {
  const rest: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const fixed = Object.prototype.hasOwnProperty.call(SERVER_SET, name) ? SERVER_SET[name] : undefined;
    if (!fixed) rest[name] = value;
    else if (!fixed(value, ctx.policy, ctx)) refuse(`its environment sets ${name} to a value its server never sets (env.injection)`);
  }
  try {
    checkEnv(rest);
  } catch (err) {
    if (err instanceof PolicyDenial) refuse(`its environment is refused by the recorded policy (${err.rule}): ${err.message}`);
    throw err;
  }
}

/** The policy context of a recorded policy: its profile, roots and command lists, the fixed system PATH, the real disk. */
export function policyContextOf(policy: PolicyRecord, caps: HostCapabilities): PolicyContext {
  return {
    profile: policy.profile,
    workspaceRoots: policy.workspaceRoots,
    readRoots: policy.readRoots,
    writeRoots: policy.writeRoots,
    stateDir: policy.stateDir,
    homeDir: policy.homeDir,
    // Commands get a private /tmp only when bubblewrap confines them (as in a server's context).
    privateTmp: policy.profile !== 'full' && policy.sandbox.bubblewrap !== 'off' && caps.bubblewrap.works,
    serverPid: process.pid,
    networkAllowed: policy.networkAllowed,
    systemPath: SYSTEM_PATH,
    fs: realPolicyFs,
    extraAllowed: policy.extraAllowedCommands,
    extraDenied: policy.extraDeniedCommands,
  };
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

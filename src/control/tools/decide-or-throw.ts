// The policy gate shared by run_command, job_start and UFO's execute_command.
import { decide } from '../../policy/decide.js';
import type { Decision } from '../../policy/types.js';
import { AppError } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';

/** Turns the request into a Decision, refusing anything the policy refuses. */
export function decideOrThrow(deps: AppDeps, args: { command: string | string[]; cwd?: string; env?: Record<string, string>; shell?: boolean; network?: boolean }): Decision & { allow: true } {
  const cwd = args.cwd ?? deps.runtime.workspaceRoots[0];
  if (!cwd) {
    throw new AppError('invalid_params', 'no workspace root is configured, so there is no default cwd', {
      hint: 'pass cwd, or restart Workbench with --root DIR',
    });
  }
  const decision = decide({ command: args.command, cwd, env: args.env, shell: args.shell, network: args.network }, deps.policyContext());
  if (!decision.allow) throw new AppError(decision.errorClass, decision.message, { rule: decision.rule });
  return decision;
}

// A step's parameters with its context references resolved. A command (run_command, job_start) is
// resolved on structure (command-template.ts); every other parameter takes the value as it is and
// then meets the tool's own validation, exactly like literal input (paths, cwd, numbers).
import { hasRefs, resolveRefs, SubstitutionError, type ResolveOptions } from './context-refs.js';
import { resolveCommandArgv, resolveCommandString, type ResolvedCommand } from './command-template.js';
import { quoteStages } from './argv-quote.js';
import type { TaskContext } from './types.js';

/** Tools whose `command` parameter is a command line. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(['run_command', 'job_start', 'execute_command']);

/** Command tools that take only a string (UFO's execute_command): they get the resolved argvs quoted back exactly. */
const STRING_ONLY: ReadonlySet<string> = new Set(['execute_command']);

export interface StepArgs {
  args: Record<string, unknown>;
  /** For a command step (without shell): the argvs it will run, resolved where known. */
  command?: ResolvedCommand;
}

/** Resolves a step's parameters for `action` against the context. */
export function resolveStepArgs(action: string, params: Record<string, unknown>, ctx: TaskContext, opts: ResolveOptions): StepArgs {
  if (!COMMAND_TOOLS.has(action)) return { args: resolveRefs(params, ctx, opts) as Record<string, unknown> };
  const { command, ...rest } = params;
  const args = resolveRefs(rest, ctx, opts) as Record<string, unknown>;
  if (!hasRefs(command)) {
    args.command = command;
    return { args, command: rest.shell === true ? undefined : viewOf(command) };
  }
  if (rest.shell === true) {
    throw new SubstitutionError('context.shell_text', 'this step runs its command through a shell (shell: true), and context values are never put into shell text; drop shell and send the command as argv or as a plain string, where each value becomes one argument');
  }
  const resolved = resolveCommand(command, ctx, opts);
  args.command = resolved.stages.length === 1 && !STRING_ONLY.has(action) ? resolved.stages[0] : quoteStages(resolved.stages);
  return { args, command: resolved };
}

function resolveCommand(command: unknown, ctx: TaskContext, opts: ResolveOptions): ResolvedCommand {
  if (typeof command === 'string') return resolveCommandString(command, ctx, opts);
  if (Array.isArray(command) && command.every((a) => typeof a === 'string')) return resolveCommandArgv(command, ctx, opts);
  throw new SubstitutionError('context.template', 'command must be a string or an array of strings');
}

/** The argvs of a command without references, for the dry-run report; undefined when it does not parse. */
function viewOf(command: unknown): ResolvedCommand | undefined {
  try {
    return resolveCommand(command, {}, {});
  } catch {
    return undefined;
  }
}

// The one entry point of the policy plane: is this command allowed, and exactly what to spawn.
// Order: cwd → env → network → (shell text | tokenize → stage count) → argv bounds → denylist → executable
// → profile rules (allowlist + argument policy, or write targets) → path policy.
import { PolicyDenial, refuse } from './denial.js';
import { checkArgv, checkStageCount, MAX_TOTAL_BYTES } from './argv-limits.js';
import { checkDenylist, checkPipelineDenylist, checkShellText } from './denylist.js';
import { checkEnv } from './env-rules.js';
import { isInside } from './sensitive-paths.js';
import { resolveExecutable } from './resolve-executable.js';
import { tokenize } from './tokenize.js';
import { stagePolicy } from './stage-policy.js';
import type { CommandRequest, Decision, PolicyContext, Stage } from './types.js';

export interface DecideOptions {
  /** `job` when the command runs as a durable job: follow modes (tail -f, journalctl -f) are fine there. */
  mode?: 'sync' | 'job';
}

/** Decides whether `req` may run under `ctx` and returns the stages to spawn, or the rule that refused it. */
export function decide(req: CommandRequest, ctx: PolicyContext, opts: DecideOptions = {}): Decision {
  try {
    return decideOrThrow(req, ctx, opts.mode ?? 'sync');
  } catch (err) {
    if (err instanceof PolicyDenial) return err.toDecision();
    throw err;
  }
}

function decideOrThrow(req: CommandRequest, ctx: PolicyContext, mode: 'sync' | 'job'): Decision {
  const cwd = checkCwd(req.cwd, ctx);
  checkEnv(req.env);
  const network = checkNetwork(req, ctx);
  if (req.shell === true) return { allow: true, stages: [shellStage(req.command, cwd, ctx)], shell: true, network, rule: `allow.${ctx.profile}.shell` };
  const argvs = typeof req.command === 'string' ? tokenizeBounded(req.command) : [argvOf(req.command)];
  for (const argv of argvs) {
    checkArgv(argv);
    checkDenylist(argv, ctx);
  }
  if (argvs.length > 1) checkPipelineDenylist(argvs);
  const stages: Stage[] = argvs.map((argv) => stagePolicy({ argv, cwd, ctx, mode }));
  return { allow: true, stages, shell: false, network, rule: `allow.${ctx.profile}` };
}

function tokenizeBounded(command: string): string[][] {
  if (command.length > MAX_TOTAL_BYTES) refuse('arg.too_long', `the command is over ${MAX_TOTAL_BYTES} bytes; pass large data through stdin or a file`);
  const { stages } = tokenize(command);
  checkStageCount(stages.length);
  return stages;
}

function argvOf(command: unknown): string[] {
  if (!Array.isArray(command) || command.some((a) => typeof a !== 'string')) {
    throw new PolicyDenial('cmd.invalid', 'command must be a string or an array of strings', 'invalid_params');
  }
  return command as string[];
}

/** cwd must be absolute, exist, and lie inside the read roots (not in the state dir); returns its realpath. */
function checkCwd(cwd: unknown, ctx: PolicyContext): string {
  if (typeof cwd !== 'string' || !cwd.startsWith('/') || cwd.includes('\0')) {
    throw new PolicyDenial('path.cwd_not_absolute', `cwd ${JSON.stringify(cwd)} must be an absolute path`, 'invalid_params');
  }
  const real = ctx.fs.realpath(cwd);
  if (real === null) throw new PolicyDenial('path.cwd_missing', `cwd ${cwd} does not exist; pass an existing directory inside the workspace`, 'not_found');
  if (isInside(real, ctx.stateDir)) throw new PolicyDenial('path.state_dir', `cwd ${cwd} is inside Workbench's state directory`, 'path_denied');
  if (!ctx.readRoots.some((r) => isInside(real, r))) {
    throw new PolicyDenial('path.cwd_outside_roots', `cwd ${cwd} is outside the read roots (${ctx.readRoots.join(', ') || 'none'}); use a directory inside them or add one with --root`, 'path_denied');
  }
  return real;
}

/** network:true needs a profile with network and policy.allow_network; full always has the user's network. */
function checkNetwork(req: CommandRequest, ctx: PolicyContext): boolean {
  if (ctx.profile === 'full') return true;
  if (req.network !== true) return false;
  if (ctx.profile === 'read-only') refuse('net.not_allowed', 'network access is off in the read-only profile; use network_check, or the workspace-write profile with policy.allow_network');
  if (!ctx.networkAllowed) refuse('net.not_allowed', 'network access is disabled by configuration; set policy.allow_network = true to allow network:true');
  return true;
}

/** shell:true runs `sh -c TEXT`: only in workspace-write/full, and the denylist still reads the text. */
function shellStage(command: unknown, cwd: string, ctx: PolicyContext): Stage {
  if (ctx.profile === 'read-only') refuse('shell.not_allowed', 'shell:true is not allowed in the read-only profile; send argv or a simple pipeline without shell constructs');
  if (typeof command !== 'string') throw new PolicyDenial('shell.argv', 'shell:true takes the command as one string', 'invalid_params');
  if (command.trim() === '') throw new PolicyDenial('cmd.empty', 'command is empty', 'invalid_params');
  if (command.includes('\0')) refuse('arg.control_char', 'the shell command contains a NUL byte');
  if (Buffer.byteLength(command, 'utf8') > MAX_TOTAL_BYTES) refuse('arg.too_long', `the shell command is over ${MAX_TOTAL_BYTES} bytes`);
  checkShellText(command, ctx);
  const { executable } = resolveExecutable('sh', cwd, ctx);
  return { name: 'sh', executable, argv: ['sh', '-c', command] };
}

/** A compact explanation of a decision for `policy_check`. */
export function explainDecision(d: Decision): { allowed: boolean; rule: string; message: string; error_class?: string; argv?: string[][] } {
  if (!d.allow) return { allowed: false, rule: d.rule, message: d.message, error_class: d.errorClass };
  const names = d.stages.map((s) => s.name).join(' | ');
  return { allowed: true, rule: d.rule, message: `allowed: ${names}${d.shell ? ' (via sh -c)' : ''}`, argv: d.stages.map((s) => s.argv) };
}

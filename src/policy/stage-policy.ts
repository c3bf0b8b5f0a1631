// Per-stage policy: resolve the executable, then apply the profile's rules to its arguments.
import { posix } from 'node:path';
import { readOnlyRule, looksLikePath } from './allowlist.js';
import type { ArgVerdict } from './arg-rules/types.js';
import { refusePath } from './denial.js';
import { assertPath, realOf } from './paths.js';
import { resolveExecutable } from './resolve-executable.js';
import { assertWorkTreeRead } from './work-tree-reads.js';
import { isInside } from './sensitive-paths.js';
import type { PolicyContext, Stage } from './types.js';
import { WRITERS } from './write-rules.js';

export interface StageInput {
  argv: string[];
  /** realpath of the request's cwd. */
  cwd: string;
  ctx: PolicyContext;
  mode: 'sync' | 'job';
}

/** Checks one pipeline stage and returns what to spawn. */
export function stagePolicy({ argv, cwd, ctx, mode }: StageInput): Stage {
  const { name, executable } = resolveExecutable(argv[0]!, cwd, ctx);
  const args = argv.slice(1);
  if (ctx.profile === 'read-only') {
    const input = { cmd: name, args, mode };
    const verdict = readOnlyRule(input, ctx.extraAllowed)(input);
    checkVerdict(verdict, cwd, ctx, false);
    return { name, executable, argv: verdict.args ? [argv[0]!, ...verdict.args] : argv };
  }
  if (ctx.profile === 'workspace-write') {
    const writer = WRITERS[name];
    if (writer) checkVerdict(writer(args), cwd, ctx, true);
    for (const p of pathLikeArgs(args, cwd, ctx)) assertPath(p, cwd, ctx, { lenient: true });
    return { name, executable, argv };
  }
  for (const p of pathLikeArgs(args, cwd, ctx)) checkStateDir(p, cwd, ctx);
  return { name, executable, argv };
}

function checkVerdict(v: ArgVerdict, cwd: string, ctx: PolicyContext, lenientReads: boolean): void {
  for (const p of v.reads ?? []) assertPath(p, cwd, ctx, { lenient: lenientReads });
  for (const p of v.recursiveReads ?? []) assertPath(p, cwd, ctx, { lenient: lenientReads, recursive: true });
  for (const p of v.workTreeReads ?? []) assertWorkTreeRead(p, cwd, ctx, lenientReads);
  for (const p of v.writes ?? []) assertPath(p, cwd, ctx, { write: true });
}

/** Arguments that name paths (look like one, or name an existing file), including the value of `--opt=PATH`. */
function pathLikeArgs(args: readonly string[], cwd: string, ctx: PolicyContext): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (looksLikePath(a) || (a !== '' && !a.startsWith('-') && ctx.fs.realpath(posix.resolve(cwd, a)) !== null)) out.push(a);
    else if (a.startsWith('-')) {
      const eq = a.indexOf('=');
      if (eq > 0 && looksLikePath(a.slice(eq + 1))) out.push(a.slice(eq + 1));
    }
  }
  return out;
}

function checkStateDir(p: string, cwd: string, ctx: PolicyContext): void {
  const abs = posix.resolve(cwd, p);
  if (isInside(abs, ctx.stateDir) || isInside(realOf(abs, ctx), ctx.stateDir)) {
    refusePath('path.state_dir', `${p} is inside Workbench's own state directory, which commands may not touch`);
  }
}

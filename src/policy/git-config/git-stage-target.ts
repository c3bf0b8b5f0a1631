// Which repository a `git …` command line would operate on (pure): its cwd after every `-C`,
// and an explicit `--git-dir` / `--work-tree` / `--bare`. The repository there is checked before
// the command runs.
import { commandName } from '../resolve-executable.js';
import { unwrap } from '../unwrap.js';
import { unsafeGit } from './judge-git-config.js';

export interface GitTarget {
  /** The directory git starts discovery from (cwd with each -C applied). */
  cwd: string;
  /** An explicit git directory (--git-dir, or cwd with --bare); discovery is skipped. */
  gitDir?: string;
  workTree?: string;
}

const WITH_VALUE = new Set(['-c', '--namespace', '--super-prefix']);

/**
 * `p` from directory `base` as the OS will resolve it when git chdir()s or opens it: never
 * normalized lexically (`..` after a symlink leaves the symlink's target); only empty and `.`
 * components, which mean nothing, are dropped. The check resolves the result with realpath.
 */
export function under(base: string, p: string): string {
  const parts = (p.startsWith('/') ? p : `${base}/${p}`).split('/').filter((c) => c !== '' && c !== '.');
  return `/${parts.join('/')}`;
}

/** The repository target of git's global options (everything before the subcommand). */
export function gitStageTarget(args: readonly string[], cwd: string): GitTarget {
  const t: GitTarget = { cwd };
  const raw: { gitDir?: string; workTree?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    if (a === '-C') t.cwd = under(t.cwd, args[++i] ?? '.');
    else if (a === '--git-dir' || a === '--work-tree') set(raw, a, args[++i] ?? '.');
    else if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) set(raw, a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    else if (a === '--bare') raw.gitDir = '.';
    else if (WITH_VALUE.has(a)) i++;
  }
  // git keeps --git-dir/--work-tree as given and resolves them after every -C.
  if (raw.gitDir !== undefined) t.gitDir = under(t.cwd, raw.gitDir);
  if (raw.workTree !== undefined) t.workTree = under(t.cwd, raw.workTree);
  return t;
}

function set(raw: { gitDir?: string; workTree?: string }, opt: string, value: string): void {
  if (opt === '--git-dir') raw.gitDir = value;
  else raw.workTree = value;
}

/**
 * The repository target when `argv` runs git — directly or through wrappers (timeout, nice, env…) —
 * else null. `env NAME=VALUE` and `env -C DIR` before git are honoured: GIT_DIR / GIT_WORK_TREE
 * name the repository; any other git variable that relocates or reconfigures git (GIT_CONFIG_*,
 * GIT_COMMON_DIR, GIT_OBJECT_DIRECTORY, …) is refused, as is git inside a wrapper's shell string.
 */
export function gitInvocation(argv: readonly string[], cwd: string): GitTarget | null {
  let a = argv;
  let dir = cwd;
  const vars: Record<string, string> = {};
  for (let depth = 0; depth < 4 && a.length > 0; depth++) {
    const name = commandName(a[0]!);
    if (name === 'git') return withVars(gitStageTarget(a.slice(1), dir), vars);
    const u = unwrap(a, name);
    if (u === null) return null;
    if (u.shellText.some((t) => /\bgit\b/.test(t))) unsafeGit(`command ${name}`, 'runs git through a shell string, which Workbench cannot check; run git directly');
    if (name === 'env') dir = envEffects(a, u.inner.length, dir, vars);
    a = u.inner;
  }
  return null;
}

// `env`'s -C/--chdir and NAME=VALUE assignments (everything before the inner command).
function envEffects(argv: readonly string[], innerLen: number, cwd: string, vars: Record<string, string>): string {
  let dir = cwd;
  const own = argv.slice(1, argv.length - innerLen);
  for (let i = 0; i < own.length; i++) {
    const w = own[i]!;
    if (w === '-C' || w === '--chdir') dir = under(dir, own[++i] ?? '.');
    else if (w.startsWith('--chdir=')) dir = under(dir, w.slice('--chdir='.length));
    else if (w.startsWith('-C') && w.length > 2) dir = under(dir, w.slice(2));
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) vars[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  return dir;
}

const GIT_IDENTITY = /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$|^GIT_TERMINAL_PROMPT$/;

function withVars(t: GitTarget, vars: Record<string, string>): GitTarget {
  for (const [k, v] of Object.entries(vars)) {
    if (k === 'GIT_DIR') t.gitDir ??= under(t.cwd, v);
    else if (k === 'GIT_WORK_TREE') t.workTree ??= under(t.cwd, v);
    else if (k.startsWith('GIT_') && !GIT_IDENTITY.test(k)) unsafeGit(`environment variable ${k}`, 'changes where git finds its repository, objects or configuration; it cannot be set for git');
  }
  return t;
}

// Which repository a `git …` command line would operate on (pure): its cwd after every `-C`,
// and an explicit `--git-dir` / `--work-tree` / `--bare`. The repository there is checked before
// the command runs.
import { posix } from 'node:path';
import { commandName } from '../resolve-executable.js';
import { unwrap } from '../unwrap.js';

export interface GitTarget {
  /** The directory git starts discovery from (cwd with each -C applied). */
  cwd: string;
  /** An explicit git directory (--git-dir, or cwd with --bare); discovery is skipped. */
  gitDir?: string;
  workTree?: string;
}

const WITH_VALUE = new Set(['-c', '--namespace', '--super-prefix']);

/** The repository target of git's global options (everything before the subcommand). */
export function gitStageTarget(args: readonly string[], cwd: string): GitTarget {
  const t: GitTarget = { cwd };
  const raw: { gitDir?: string; workTree?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    if (a === '-C') t.cwd = posix.resolve(t.cwd, args[++i] ?? '.');
    else if (a === '--git-dir' || a === '--work-tree') set(raw, a, args[++i] ?? '.');
    else if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) set(raw, a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    else if (a === '--bare') raw.gitDir = '.';
    else if (WITH_VALUE.has(a)) i++;
  }
  // git keeps --git-dir/--work-tree as given and resolves them after every -C.
  if (raw.gitDir !== undefined) t.gitDir = posix.resolve(t.cwd, raw.gitDir);
  if (raw.workTree !== undefined) t.workTree = posix.resolve(t.cwd, raw.workTree);
  return t;
}

function set(raw: { gitDir?: string; workTree?: string }, opt: string, value: string): void {
  if (opt === '--git-dir') raw.gitDir = value;
  else raw.workTree = value;
}

/** git's arguments when `argv` runs git (directly or through a wrapper such as timeout/env/nice), else null. */
export function gitArgsOf(argv: readonly string[]): string[] | null {
  let a = argv;
  for (let depth = 0; depth < 4 && a.length > 0; depth++) {
    const name = commandName(a[0]!);
    if (name === 'git') return a.slice(1);
    const u = unwrap(a, name);
    if (u === null) return null;
    a = u.inner;
  }
  return null;
}

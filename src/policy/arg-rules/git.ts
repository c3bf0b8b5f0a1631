// git in read-only: global options that load config or programs are refused, only read
// subcommands run, each with its own write/exec options refused, and the policy adds `-c`
// settings so repository-local config cannot start a pager, fsmonitor, hooks or signature tools.
import { posix } from 'node:path';
import { refuse } from '../denial.js';
import { parseOptions, type Danger, type OptionSpec, type ParsedArgs } from '../options.js';
import { GIT_SUBCOMMAND_CHECKS } from './git-subcommands.js';
import type { ArgRule, ArgVerdict } from './types.js';

/** `-c` settings added before the subcommand in read-only. */
export const GIT_HARDENING: readonly string[] = [
  '-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '-c', 'core.hooksPath=/dev/null', '-c', 'core.sshCommand=false',
  '-c', 'log.showSignature=false', '-c', 'credential.helper=', '-c', 'protocol.allow=never',
  '-c', 'gpg.program=false', '-c', 'gpg.ssh.program=false', '-c', 'gpg.x509.program=false', '-c', 'diff.external=',
];
const NO_PROGRAMS = new Set(['diff', 'log', 'show', 'whatchanged', 'blame']);

const COMMON_DENIED: Readonly<Record<string, Danger>> = {
  output: 'write', 'output-directory': 'write', 'ext-diff': 'exec', textconv: 'exec', filters: 'exec',
  'upload-pack': 'exec', 'receive-pack': 'exec', exec: 'exec', 'show-signature': 'exec', 'open-files-in-pager': 'exec',
};
const COMMON_FLAGS = ['text', 'no-ext-diff', 'no-textconv', 'no-index', 'list', 'name-only', 'name-status'];
const COMMON_VALUES = ['author', 'committer', 'grep', 'since', 'until', 'after', 'before', 'max-count', 'skip', 'date', 'encoding', 'word-diff-regex', 'src-prefix', 'dst-prefix', 'line-prefix', 'orderfile', 'find-object', 'glob', 'exclude', 'contents', 'ignore-revs-file', 'exclude-from', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'regexp', 'file', 'max-depth', 'threads', 'blob', 'type', 'default', 'get', 'get-all', 'get-regexp', 'get-urlmatch'];
const PATH_OPTIONS = new Set(['orderfile', 'O', 'contents', 'ignore-revs-file', 'exclude-from', 'X', 'file', 'f']);

/**
 * Read subcommands that read file contents or list names across the work tree (not just objects
 * in the repository): recursive reads of the tree, checked like `grep -r` (see work-tree-reads.ts).
 */
export const WHOLE_TREE = new Set(['grep', 'ls-files', 'status', 'diff', 'diff-files', 'diff-index']);

/** Which subcommands read only; anything else is refused in read-only. */
export const GIT_READ_SUBCOMMANDS = new Set([
  'status', 'log', 'diff', 'show', 'branch', 'tag', 'rev-parse', 'ls-files', 'ls-tree', 'cat-file', 'blame', 'annotate',
  'shortlog', 'describe', 'remote', 'config', 'grep', 'reflog', 'stash', 'rev-list', 'show-ref', 'for-each-ref', 'name-rev',
  'merge-base', 'count-objects', 'whatchanged', 'version', 'check-ignore', 'check-attr', 'diff-tree', 'diff-files',
  'diff-index', 'show-branch', 'cherry', 'range-diff', 'worktree', 'notes', 'var', 'verify-pack',
]);

/** Read-only policy for git. */
export const gitRule: ArgRule = ({ args }): ArgVerdict => {
  const reads: string[] = [];
  const base: string[] = [];
  const i = globalOptions(args, reads, base);
  const sub = args[i];
  if (sub === undefined) return { reads };
  if (sub === 'help') refuse('cmd.interactive', '`git help` opens a manual page; read git documentation elsewhere');
  if (!GIT_READ_SUBCOMMANDS.has(sub)) refuse('arg.git_subcommand', `\`git ${sub}\` is not a read-only git command in this profile`);
  const rest = args.slice(i + 1);
  const parsed = parseOptions(rest, gitSpec(sub));
  GIT_SUBCOMMAND_CHECKS[sub]?.(parsed);
  for (const o of parsed.options) if (o.value !== undefined && PATH_OPTIONS.has(o.name)) reads.push(o.value);
  const magic = pathOperands(rest, parsed, sub, reads);
  const extra = NO_PROGRAMS.has(sub) ? [sub, '--no-ext-diff', '--no-textconv'] : [sub];
  const workTreeReads = WHOLE_TREE.has(sub) || magic ? [base.reduce((acc, d) => (d.startsWith('/') ? d : posix.join(acc, d)), '.')] : undefined;
  return { reads, ...(workTreeReads ? { workTreeReads } : {}), args: [...GIT_HARDENING, ...args.slice(0, i), ...extra, ...rest] };
};

function gitSpec(sub: string): OptionSpec {
  const grep = sub === 'grep';
  return {
    cmd: 'git',
    shortValue: grep ? 'efABCm' : sub === 'config' ? 'f' : 'nSGOX',
    longValue: COMMON_VALUES,
    longFlags: COMMON_FLAGS,
    deniedLong: COMMON_DENIED,
    deniedShort: grep ? { O: 'exec' } : undefined,
  };
}

/** Parses git's global options (before the subcommand); returns the subcommand's index. `base` gets the directories git runs in. */
function globalOptions(args: readonly string[], reads: string[], base: string[]): number {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    if (a.startsWith('-c') || a.startsWith('--config-env')) refuse('arg.git_c', `\`git ${a}\` sets configuration that can run programs; it is refused in this profile`);
    if (a.startsWith('--exec-path=')) refuse('arg.git_exec_path', '`git --exec-path=DIR` runs git programs from another directory; it is refused');
    if (a === '--help' || a === '-h') refuse('cmd.interactive', '`git --help` opens a manual page');
    if (a === '-C' || a === '--git-dir' || a === '--work-tree') reads.push(args[++i] ?? '');
    else if (a.startsWith('--git-dir=') || a.startsWith('--work-tree=')) reads.push(a.slice(a.indexOf('=') + 1));
    if (a === '-C' || a === '--work-tree' || a.startsWith('--work-tree=')) base.push(reads.at(-1)!);
    else if (a === '--namespace' || a === '--super-prefix') i++;
  }
  return i;
}

/**
 * Pathspecs after `--`, and operands that leave the repository (absolute, `..`, `~`), are path-checked.
 * An operand starting with `:` is magic (`:/`, `:(top)`, `:(glob)`, `:!`/`:^`, `:(literal)`, or an
 * index path `:name`): it is relative to the work tree's top, not to cwd, so it is never checked as
 * a path; it returns true and the caller checks the whole work tree (work-tree-reads.ts) instead.
 */
function pathOperands(rest: readonly string[], parsed: ParsedArgs, sub: string, reads: string[]): boolean {
  const dashdash = rest.indexOf('--');
  const after = dashdash < 0 ? [] : rest.slice(dashdash + 1);
  let ops = parsed.operands.slice(0, parsed.operands.length - after.length);
  if (sub === 'grep' && !parsed.options.some((o) => 'ef'.includes(o.name) || o.name === 'regexp' || o.name === 'file')) ops = ops.slice(1);
  for (const o of ops) if (!o.startsWith(':') && (o.startsWith('/') || o.startsWith('../') || o === '..' || o.startsWith('~'))) reads.push(o);
  for (const o of after) if (!o.startsWith(':')) reads.push(o);
  return [...ops, ...after].some((o) => o.startsWith(':'));
}

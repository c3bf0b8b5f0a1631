// Per-subcommand checks for git in read-only: the listing forms of branch/tag/remote/config/stash
// are allowed, the forms that create, delete or change something are refused.
import { refuse } from '../denial.js';
import { hasOption, refuseOption, type ParsedArgs } from '../options.js';

const BRANCH_WRITE = ['d', 'D', 'm', 'M', 'c', 'C', 'f', 'u', 'delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'edit-description', 'track', 'create-reflog'];
const TAG_WRITE = ['d', 'a', 's', 'u', 'f', 'm', 'F', 'e', 'delete', 'annotate', 'sign', 'local-user', 'force', 'message', 'file', 'edit', 'verify', 'create-reflog'];
const CONFIG_WRITE = ['add', 'unset', 'unset-all', 'replace-all', 'rename-section', 'remove-section', 'edit', 'e'];
const CONFIG_READ = ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'list', 'l', 'get-color', 'get-colorbool'];
const CONFIG_VERBS_WRITE = new Set(['set', 'unset', 'rename-section', 'remove-section', 'edit', 'add', 'replace-all']);

function refuseWrite(sub: string, what: string): never {
  refuse(`arg.git_${sub}_write`, `\`git ${sub} ${what}\` changes the repository; only its listing form is allowed in this profile`);
}

function listing(sub: string, writes: string[]) {
  return (p: ParsedArgs): void => {
    const w = p.options.find((o) => writes.includes(o.name));
    if (w) refuseWrite(sub, (w.long ? '--' : '-') + w.name);
    if (p.operands.length > 0 && !hasOption(p, 'l', 'list')) refuseWrite(sub, p.operands[0]!);
  };
}

function verbs(sub: string, allowed: (string | undefined)[]) {
  return (p: ParsedArgs): void => {
    if (!allowed.includes(p.operands[0])) refuseWrite(sub, p.operands[0] ?? '(no verb)');
  };
}

/** Subcommand name → extra check on its parsed arguments. */
export const GIT_SUBCOMMAND_CHECKS: Record<string, (p: ParsedArgs) => void> = {
  branch: listing('branch', BRANCH_WRITE),
  tag: listing('tag', TAG_WRITE),
  stash: verbs('stash', ['list', 'show']),
  worktree: verbs('worktree', ['list']),
  notes: verbs('notes', [undefined, 'list', 'show']),
  reflog: (p) => {
    if (['expire', 'delete', 'drop'].includes(p.operands[0] ?? '')) refuseWrite('reflog', p.operands[0]!);
  },
  remote: (p) => {
    const verb = p.operands[0];
    if (verb === undefined || verb === 'get-url') return;
    if (verb === 'show' && hasOption(p, 'n')) return;
    if (verb === 'show') refuse('arg.git_remote_network', '`git remote show NAME` contacts the remote; use `git remote show -n NAME` or `git remote -v`');
    refuseWrite('remote', verb);
  },
  config: (p) => {
    const w = p.options.find((o) => CONFIG_WRITE.includes(o.name));
    if (w) refuseOption('git', `config --${w.name}`, 'write');
    const verb = p.operands[0];
    if (verb !== undefined && CONFIG_VERBS_WRITE.has(verb)) refuseWrite('config', verb);
    if (hasOption(p, ...CONFIG_READ) || verb === 'get' || verb === 'list') return;
    if (p.operands.length > 1) refuseWrite('config', p.operands.join(' '));
  },
};

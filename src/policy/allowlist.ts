// The read-only allowlist (SPEC §4): every allowed command with its argument policy, and the
// rule id a command outside it is refused with.
import { refuse } from './denial.js';
import { INTERACTIVE, isInterpreter, WRAPPERS, FETCHERS } from './command-classes.js';
import { awkRule } from './arg-rules/awk.js';
import { FILE_RULES } from './arg-rules/files.js';
import { findRule } from './arg-rules/find.js';
import { gitRule } from './arg-rules/git.js';
import { ipRule } from './arg-rules/ip.js';
import { jqRule } from './arg-rules/jq.js';
import { sedRule } from './arg-rules/sed.js';
import { SYSTEM_RULES } from './arg-rules/system.js';
import { tarRule } from './arg-rules/tar.js';
import type { ArgRule, RuleInput } from './arg-rules/types.js';
import { VERSION_ONLY, versionOnlyRule } from './arg-rules/version-only.js';
import { xxdRule } from './arg-rules/xxd.js';

/** Read-only allowlist: command name → argument policy. */
export const READ_ONLY_RULES: ReadonlyMap<string, ArgRule> = new Map<string, ArgRule>([
  ...Object.entries(FILE_RULES),
  ...Object.entries(SYSTEM_RULES),
  ...VERSION_ONLY.map((n): [string, ArgRule] => [n, versionOnlyRule]),
  ['find', findRule], ['git', gitRule], ['ip', ipRule], ['jq', jqRule], ['sed', sedRule], ['tar', tarRule], ['xxd', xxdRule],
  ['awk', awkRule], ['gawk', awkRule], ['mawk', awkRule], ['nawk', awkRule],
]);

/** Any path-looking argument of an extra allowed command is a read (the admin vouched for the command). */
const extraRule: ArgRule = ({ args }) => ({ reads: args.filter(looksLikePath) });

/** True for arguments that name a file system path (`/x`, `./x`, `../x`, `a/b`). */
export function looksLikePath(a: string): boolean {
  return a.charCodeAt(0) !== 45 && (a.includes('/') || a.startsWith('.'));
}

/** The argument policy for `name` in read-only; throws the most specific refusal when it has none. */
export function readOnlyRule(input: RuleInput, extraAllowed: readonly string[] | undefined): ArgRule {
  const rule = READ_ONLY_RULES.get(input.cmd);
  if (rule) return rule;
  if (extraAllowed?.includes(input.cmd)) return extraRule;
  const name = input.cmd;
  if (INTERACTIVE.has(name)) refuse('cmd.interactive', `\`${name}\` is interactive (pager or editor); read files with cat/head/tail or read_file`);
  if (isInterpreter(name)) refuse('cmd.interpreter', `\`${name}\` runs arbitrary code; it needs the workspace-write profile`);
  if (WRAPPERS.has(name)) refuse('cmd.wrapper', `\`${name}\` runs another program; send that program directly`);
  if (FETCHERS.has(name)) refuse('cmd.not_allowed', `\`${name}\` reaches the network; read-only has no network (use network_check, or workspace-write with network:true)`);
  refuse('cmd.not_allowed', `\`${name}\` is not in the read-only allowlist; use an allowed command, or ask for policy.extra_allowed_commands or the workspace-write profile`);
}

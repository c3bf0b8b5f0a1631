// ripgrep argv for a file_search request (no config file, no symlink following, same rules as the built-in engine).
import type { AppDeps } from '../../control/deps.js';
import { ignoreCase, type SearchArgs } from './search-types.js';

/** Builds the rg argument list; the search root is the working directory. */
export function rgArgs(deps: AppDeps, args: SearchArgs): string[] {
  const a = ['--json', '--no-config', '--no-follow', '--no-require-git', '--no-messages'];
  if (!args.regex) a.push('--fixed-strings');
  a.push(ignoreCase(args) ? '--ignore-case' : '--case-sensitive');
  if (args.context_lines > 0) a.push('--context', String(args.context_lines));
  if (args.include_hidden) a.push('--hidden');
  if (args.include_skipped) a.push('--no-ignore');
  else for (const d of deps.config.adapters.skip_dirs) a.push('--glob', `!${d}/`);
  if (args.glob) a.push('--glob', args.glob);
  a.push('--', args.query, '.');
  return a;
}

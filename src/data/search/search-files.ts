// file_search: picks ripgrep when installed (or the built-in engine) and sorts the matches stably.
import type { AppDeps } from '../../control/deps.js';
import { resolveDir } from '../files/walk-setup.js';
import { compareNames } from '../files/path-order.js';
import { searchBuiltin } from './search-builtin.js';
import { searchRipgrep } from './search-ripgrep.js';
import { compileQuery, type SearchArgs, type SearchMatch } from './search-types.js';

export type SearchEngine = 'ripgrep' | 'builtin';

/** Runs the search; `engine` forces one engine (tests run both on the same fixtures). */
export async function searchFiles(deps: AppDeps, args: SearchArgs, engine?: SearchEngine) {
  const root = await resolveDir(deps, args.path, 'file_search');
  compileQuery(args);
  const rg = deps.capabilities().ripgrep;
  const use: SearchEngine = engine ?? (rg ? 'ripgrep' : 'builtin');
  const r = use === 'ripgrep' && rg ? await searchRipgrep(deps, rg, root, args) : await searchBuiltin(deps, root, args);
  r.matches.sort(byPlace);
  return { root, engine: rg && use === 'ripgrep' ? use : 'builtin', ...r };
}

function byPlace(a: SearchMatch, b: SearchMatch): number {
  return compareNames(a.path, b.path) || a.line - b.line;
}

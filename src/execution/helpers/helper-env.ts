// The scrubbed environment every helper program starts with: nothing is inherited from the server.
import { SYSTEM_PATH } from '../../sandbox/capabilities.js';

/**
 * HOME of a helper that runs without the sandbox view: a path that does not exist, so no user
 * config (~/.gitconfig, ~/.npmrc, pip.conf …) is read. Inside the sandbox, bubblewrap replaces
 * HOME with the private (empty, in-memory) home.
 */
export const NO_HOME = '/nonexistent';

/** A minimal environment: fixed PATH, C locale, no HOME; `extra` adds the program's own switches. */
export function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, ...fixedEnv() };
}

/** The variables a caller can never override: the fixed system PATH, the locale and HOME. */
export function fixedEnv(): Record<string, string> {
  return { PATH: SYSTEM_PATH.join(':'), LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: NO_HOME };
}

// UFO's authentication: an `api_key` tool argument compared in constant time with Workbench's API token.
import { readFileSync } from 'node:fs';
import { AppError } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { tokenMatches } from '../http/guard.js';
import { tokenFile } from '../http/token.js';

/** The refusal for a missing or wrong api_key (fail-closed; says nothing about the token). */
export function apiKeyRefused(): AppError {
  return new AppError('policy_denied', 'Authentication failed: invalid or missing api_key', {
    rule: 'auth.api_key',
    hint: 'pass the Workbench API token (printed by `workbench token`) as the api_key argument',
  });
}

/** The stored API token, or undefined when there is none yet (then every api_key is refused). */
export function storedToken(deps: AppDeps): string | undefined {
  try {
    const token = readFileSync(tokenFile(deps.runtime.stateDir), 'utf8').trim();
    return token.length >= 16 ? token : undefined;
  } catch {
    return undefined;
  }
}

/** Throws unless `given` matches the token; an absent or empty expected token never matches. */
export function assertApiKey(given: unknown, token: string | undefined): void {
  if (typeof given !== 'string' || !tokenMatches(given, token ?? '')) throw apiKeyRefused();
}

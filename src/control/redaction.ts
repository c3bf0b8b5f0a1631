// The server's secret values and the one redactor built from them. Every way out goes through it:
// tool results (envelope.ts), the job log resources (tools/jobs.ts), REST and batch answers (they
// are tool results), audit arguments (invoke.ts) and every log line (redactingLogger below).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { createRedactor, isLocation, type Redactor } from '../policy/redact.js';
import { secretValuesOf } from '../policy/secret-names.js';
import type { AppDeps } from './deps.js';
import { tokenFile } from './token-file.js';
import type { Logger } from './logger.js';

/** True for a path that exists here, `~/` meaning the home directory. */
export function pathExists(p: string): boolean {
  return existsSync(p.startsWith('~/') ? `${homedir()}${p.slice(1)}` : p);
}

/**
 * The values a redactor hides: the token file's content, secret parts of the environment (less
 * locations: GOOGLE_APPLICATION_CREDENTIALS=/path/key.json names where a secret is), and the
 * values of the configured secret variables (taken whole: the person said they are secrets).
 */
export function serverSecretValues(env: NodeJS.ProcessEnv, configured: readonly string[], token: string | undefined): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // The same rule that keeps these variables from every child (dropFromChildEnv).
    const parts = secretValuesOf(name, value, configured);
    out.push(...(configured.includes(name) ? parts : parts.filter((v) => !isLocation(v, pathExists))));
  }
  if (token !== undefined) out.push(token);
  return out;
}

interface Cached {
  stamp: string;
  redactor: Redactor;
}

/**
 * The app's redactor. The token file may be created after start-up (by `serve`, `workbench token`
 * or another instance on the same state directory), so its stat is checked on each use and the
 * redactor rebuilt (re-reading the environment too) when it changed.
 */
export function serverRedactor(deps: AppDeps): Redactor {
  const cache = deps.service('redactor-cache', () => ({ current: undefined as Cached | undefined }));
  const file = tokenFile(deps.runtime.stateDir);
  const st = statSync(file, { throwIfNoEntry: false });
  const stamp = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
  if (cache.current?.stamp !== stamp) {
    const token = st ? readToken(file) : undefined;
    cache.current = { stamp, redactor: createRedactor(serverSecretValues(process.env, deps.config.secrets.env, token)) };
  }
  return cache.current.redactor;
}

function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A logger whose every line passes through the redactor first. */
export function redactingLogger(inner: Logger, redactor: () => Redactor): Logger {
  const wrap = (level: keyof Logger) => (obj: object) => inner[level](redactor().value(obj));
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}

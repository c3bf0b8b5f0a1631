// Finds, parses and validates the TOML config; any problem becomes one line naming the key.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { parse } from 'smol-toml';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { ConfigSchema, type Config } from './schema.js';

// The TOML parser is required only when there is a file to parse (most starts have none).
const require = createRequire(import.meta.url);

export { ConfigError };

/** The person's config directory: $XDG_CONFIG_HOME/workbench (when absolute), else ~/.config/workbench. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(xdg, 'workbench');
}

/** The system-wide config, read when the person has none. */
export const SYSTEM_CONFIG = '/etc/workbench/config.toml';

/**
 * Where the config comes from: --config, else the person's XDG config file, else the system one.
 * Never the working directory or a workspace: a repository must not be able to set its own policy.
 */
export function findConfigFile(explicit?: string, cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (explicit) {
    const p = resolve(cwd, explicit);
    if (!existsSync(p)) throw new ConfigError(`config file ${p} does not exist; pass an existing file to --config`);
    return p;
  }
  for (const p of [join(userConfigDir(env), 'config.toml'), SYSTEM_CONFIG]) if (existsSync(p)) return p;
  return undefined;
}

/** Loads and validates a config file (or the defaults when there is none). */
export function loadConfig(file: string | undefined): Config {
  if (!file) return ConfigSchema.parse({});
  const parseToml = (require('smol-toml') as { parse: typeof parse }).parse;
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`config ${file}: not valid TOML: ${(err as Error).message.split('\n')[0]}`);
  }
  return parseConfig(raw, file);
}

/** Validates an already-parsed config object. */
export function parseConfig(raw: unknown, source = 'config'): Config {
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new ConfigError(`${source}: ${describeIssue(result.error.issues[0]!, raw)}`);
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return `unknown key ${keys.map((k) => `'${k}'`).join(', ')}; remove it or check the spelling (see 'workbench config init')`;
  }
  const got = valueAt(raw, issue.path);
  const shown = got === undefined ? '' : ` (got ${JSON.stringify(got)})`;
  return `bad value for '${path}': ${expectation(issue)}${shown}`;
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `expected a value >= ${String(issue.minimum)}`;
    case 'too_big':
      return `expected a value <= ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = raw;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

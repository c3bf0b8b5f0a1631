// env_vars: the server's environment, sorted, with secret values masked by name (the same exact rule
// as redaction: a location such as GOOGLE_APPLICATION_CREDENTIALS=/path/key.json stays visible;
// credentials inside URLs are redacted by the envelope).
import { existsSync } from 'node:fs';
import { isLocation } from '../../policy/redact.js';
import { isSecretName } from '../../policy/secret-names.js';

export interface EnvVar {
  name: string;
  value: string;
  masked: boolean;
}

const MAX_VALUE = 2000;

/** Lists variables whose name contains `filter` (case-insensitive); secrets show as "****". */
export function listEnv(env: NodeJS.ProcessEnv, filter?: string): EnvVar[] {
  const f = filter?.toLowerCase();
  return Object.keys(env)
    .filter((name) => f === undefined || name.toLowerCase().includes(f))
    .sort()
    .map((name) => {
      const raw = env[name] ?? '';
      const masked = isSecretName(name) && !isLocation(raw, (p) => existsSync(p));
      return { name, value: masked ? '****' : raw.length > MAX_VALUE ? raw.slice(0, MAX_VALUE) + '…' : raw, masked };
    });
}

// The HTTP API key: generated on first start, stored 0600 in the state directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tokenFile } from '../token-file.js';

export { tokenFile };

/** Reads the token, creating it when absent. Fails closed: an unreadable or empty file is an error. */
export function loadOrCreateToken(stateDir: string): string {
  const file = tokenFile(stateDir);
  if (!existsSync(file)) {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  if (token.length < 16) throw new Error(`API token file ${file} is empty or too short; delete it to generate a new one`);
  return token;
}

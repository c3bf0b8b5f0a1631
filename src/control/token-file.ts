// Where the HTTP API token lives (outside http/ so the redactor can find it without loading the HTTP plane).
import { join } from 'node:path';

/** Path of the token file. */
export function tokenFile(stateDir: string): string {
  return join(stateDir, 'api-token');
}

// A config file is policy: it is read only when nothing but the person (or root) can have written
// it, and never from inside a directory the agent may write to.
import { realpathSync } from 'node:fs';
import { ConfigError } from './load.js';
import type { Runtime } from './runtime.js';
import { untrustedReason } from './trusted-path.js';

const FIX = 'move it to ~/.config/workbench/config.toml (or pass --config with a file only you can write)';

/** Refuses a config file that another user could have written: checked before it is parsed. */
export function assertConfigOwned(file: string): void {
  const real = realOrThrow(file);
  for (const p of new Set([file, real])) {
    const why = untrustedReason(p);
    if (why) throw new ConfigError(`config ${file} is refused: ${why}. A config file is policy: ${FIX}`);
  }
}

/** Refuses a config file that lies inside a directory the agent may write to (it could rewrite its own policy). */
export function assertConfigOutsideWriteRoots(file: string, runtime: Pick<Runtime, 'profile' | 'writeRoots' | 'workspaceRoots'>): void {
  const real = realOrThrow(file);
  // In `full` everything is writable; the workspace is still where an agent works, so it is checked.
  const roots = runtime.profile === 'full' ? runtime.workspaceRoots : runtime.writeRoots;
  const root = roots.find((r) => r === '/' || real === r || real.startsWith(`${r}/`));
  if (root) {
    throw new ConfigError(
      `config ${file} is refused: it lies inside the write root ${root}, where the agent could rewrite its own policy; ${FIX}, or choose roots that do not contain it`,
    );
  }
}

function realOrThrow(file: string): string {
  try {
    return realpathSync(file);
  } catch (err) {
    throw new ConfigError(`config ${file} cannot be resolved: ${(err as Error).message}`);
  }
}

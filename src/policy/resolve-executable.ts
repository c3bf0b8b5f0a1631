// Finds a command on the fixed system PATH only: a path given by the caller is accepted just when
// it is the very file the system PATH would pick for its basename (a workspace's ./ls is not ls).
import { posix } from 'node:path';
import { PolicyDenial, refuse } from './denial.js';
import type { PolicyContext } from './types.js';

export interface ResolvedExecutable {
  /** Basename-normalized name (`rm` for `/usr/bin/rm`). */
  name: string;
  /** Absolute path on the system PATH. */
  executable: string;
}

/** Returns the basename of a command word (`/usr/bin/rm` → `rm`). */
export function commandName(word: string): string {
  const cut = word.lastIndexOf('/');
  return cut < 0 ? word : word.slice(cut + 1);
}

/** Resolves argv[0] on ctx.systemPath; throws `cmd.not_found` or `cmd.path_not_system`. */
export function resolveExecutable(word: string, cwd: string, ctx: PolicyContext): ResolvedExecutable {
  const name = commandName(word);
  if (name === '' || name === '.' || name === '..') {
    throw new PolicyDenial('cmd.invalid', `${JSON.stringify(word)} is not a command name`, 'invalid_params');
  }
  const found = findOnPath(name, ctx);
  if (word.includes('/')) {
    const given = ctx.fs.realpath(posix.resolve(cwd, word));
    if (found === null || given === null || ctx.fs.realpath(found) !== given) {
      refuse('cmd.path_not_system', `${word} is not the system's ${name}; commands run only from the system PATH (${ctx.systemPath.join(':')}); send the bare name`);
    }
    return { name, executable: found };
  }
  if (found === null) {
    throw new PolicyDenial('cmd.not_found', `${name} was not found on the system PATH (${ctx.systemPath.join(':')}); check the name or install it`, 'not_found');
  }
  return { name, executable: found };
}

function findOnPath(name: string, ctx: PolicyContext): string | null {
  for (const dir of ctx.systemPath) {
    const candidate = dir.endsWith('/') ? dir + name : `${dir}/${name}`;
    if (ctx.fs.isExecutable(candidate)) return candidate;
  }
  return null;
}

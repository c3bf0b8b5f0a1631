// A secret path that does not exist yet, under a root the sandbox binds writable, would be created
// by a confined command (~/.ssh/authorized_keys). It is masked like an existing one, so it must
// exist on the host first: an empty directory (0700), or a file (0600) whose content every tool
// that reads that file accepts as "nothing configured".
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { AppError } from '../shared/errors.js';

/** Home-relative secrets that are files, with the content an absent configuration reads as. */
const FILES: Readonly<Record<string, string>> = {
  '.docker/config.json': '{}\n', '.netrc': '', '.git-credentials': '', '.config/git/credentials': '', '.npmrc': '',
  '.pypirc': '', '.vault-token': '', '.pgpass': '', '.my.cnf': '', '.cargo/credentials': '', '.cargo/credentials.toml': '',
  '.gem/credentials': '', '.terraform.d/credentials.tfrc.json': '{}\n', '.config/hub': '', '.boto': '',
  '.m2/settings.xml': '<settings/>\n', '.gradle/gradle.properties': '', '.s3cfg': '', '.config/containers/auth.json': '{}\n',
};

/** Whether the home secret `rel` (an entry of HOME_SECRETS) is a file; every other entry is a directory. */
export function isSecretFile(rel: string): boolean {
  return Object.hasOwn(FILES, rel);
}

/**
 * Creates the missing `path` (directory, or file with its neutral content) and any missing parent
 * below `base` (0700), never through a symbolic link. Returns the kind created.
 */
export function createPlaceholder(path: string, base: string, rel: string): 'dir' | 'file' {
  const file = isSecretFile(rel);
  makeParents(file ? dirname(path) : path, base);
  if (!file) return 'dir';
  try {
    writeFileSync(path, FILES[rel]!, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(path, err);
  }
  if (!lstatSync(path).isFile()) throw cannot(path, new Error('something other than a file is in its place'));
  return 'file';
}

function makeParents(dir: string, base: string): void {
  let cur = base;
  for (const part of relative(base, dir).split('/').filter(Boolean)) {
    cur = join(cur, part);
    try {
      mkdirSync(cur, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(cur, err);
    }
    if (!lstatSync(cur).isDirectory()) throw cannot(cur, new Error('it is not a directory (a symbolic link is not followed)'));
  }
}

function cannot(path: string, err: unknown): AppError {
  return new AppError('unavailable', `cannot protect ${path} from confined commands: ${(err as Error).message}`, {
    hint: 'remove what is in its place, or choose write roots that do not contain your home directory',
  });
}

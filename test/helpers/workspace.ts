// Temporary workspace and state directories, removed after the test.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDirs {
  root: string;
  workspace: string;
  state: string;
  cleanup(): void;
}

/** Creates `<tmp>/wb-XXXX/{workspace,state}`. */
export function tempDirs(prefix = 'wb-'): TempDirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const workspace = join(root, 'workspace');
  const state = join(root, 'state');
  mkdirSync(workspace);
  mkdirSync(state, { mode: 0o700 });
  return { root, workspace, state, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

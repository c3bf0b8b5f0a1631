// A real temporary workspace and a real-fs PolicyFs for policy tests.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PolicyContext, PolicyFs, Profile } from '../../src/policy/types.js';
import { realPolicyFs } from '../../src/execution/real-policy-fs.js';

/** PolicyFs backed by the real file system (the production implementation). */
export const realFs: PolicyFs = realPolicyFs;

export const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
/** A home directory that does not exist: its secrets and its "outside the roots" status are pure path facts. */
export const FAKE_HOME = '/home/wb-policy-test-user';

export interface Fixture {
  base: string;
  ws: string;
  state: string;
  ctx(profile: Profile, extra?: Partial<PolicyContext>): PolicyContext;
  cleanup(): void;
}

/** Creates base/{ws,state,outside} with files, an executable ./ls and symlinks out of the workspace. */
export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-policy-')));
  const ws = join(base, 'ws');
  const state = join(base, 'state');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(join(ws, 'sub'), { recursive: true });
  mkdirSync(state);
  // A nested repository (a .git marker is all the policy looks at) with a subdirectory.
  mkdirSync(join(ws, 'repo', '.git'), { recursive: true });
  mkdirSync(join(ws, 'repo', 'inner', 'wb-state'), { recursive: true });
  // Decoys inside it that git skips while climbing to repo/: an empty `.git` directory, a junk `.git` file.
  mkdirSync(join(ws, 'repo', 'decoy', '.git'), { recursive: true });
  mkdirSync(join(ws, 'repo', 'junk'), { recursive: true });
  writeFileSync(join(ws, 'repo', 'junk', '.git'), 'not a gitdir line\n');
  writeFileSync(join(state, 'api-key'), 'secret-key-value');
  for (const f of ['a', 'b', 'f', 'app.log', 'README.md', 'script.js', 'x.tar', 'patterns.txt', 'list.txt']) writeFileSync(join(ws, f), 'hello\n');
  writeFileSync(join(ws, 'package.json'), '{"name":"x"}\n');
  writeFileSync(join(ws, 'src', 'index.ts'), 'export {};\n');
  for (const exe of ['ls', 'script.sh', join('sub', 'ls')]) {
    writeFileSync(join(ws, exe), '#!/bin/sh\necho pwned\n');
    chmodSync(join(ws, exe), 0o755);
  }
  symlinkSync('/etc/shadow', join(ws, 'link-shadow'));
  symlinkSync('/var/lib', join(ws, 'link-out'));
  symlinkSync(state, join(ws, 'link-state'));
  const varLog = realFs.realpath('/var/log');
  return {
    base,
    ws,
    state,
    ctx(profile, extra = {}) {
      return {
        profile,
        workspaceRoots: [ws],
        readRoots: varLog ? [ws, varLog] : [ws],
        writeRoots: profile === 'read-only' ? [] : profile === 'full' ? ['/'] : [ws],
        stateDir: state,
        homeDir: FAKE_HOME,
        networkAllowed: false,
        systemPath: SYSTEM_PATH,
        fs: realFs,
        ...extra,
      };
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

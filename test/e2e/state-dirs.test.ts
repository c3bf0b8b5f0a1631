// State that is ours (SPEC §4.1a): the state directory and the private sandbox directory are created
// 0700; when they exist, owned by the server's user, without group/other write and without a symbolic
// link on the path — or start-up stops and says which and why. The "other user" is uid 65534, and it
// really creates its directory (setpriv) where it can (a sticky, world-writable dir, like /tmp).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MAIN } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

const dirs = tempDirs();

function start(state: string) {
  const env = { ...process.env, WORKBENCH_HOME: state, XDG_CONFIG_HOME: join(dirs.root, 'no-config') };
  return spawnSync(process.execPath, [MAIN, 'stdio', '--root', dirs.workspace], { env, cwd: dirs.workspace, input: '', encoding: 'utf8', timeout: 15_000 });
}

function refused(state: string, what: RegExp, why: RegExp): void {
  const r = start(state);
  assert.equal(r.status, 2, `start-up must stop (got ${r.status}): ${r.stderr}`);
  assert.match(r.stderr, what);
  assert.match(r.stderr, why);
  assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
}

/** A sticky world-writable directory (like /tmp) in which the other user can create its own entries. */
function shared(name: string): string {
  const d = join(dirs.root, name);
  mkdirSync(d);
  chmodSync(d, 0o1777);
  // The temp root itself is 0700: let uid 65534 through to the shared directory.
  chmodSync(dirs.root, 0o711);
  return d;
}

/** Runs `mkdir -p DIR` as uid 65534, as another local user would. */
function mkdirAsOther(dir: string): void {
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'mkdir', '-p', '-m', '0755', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, `setpriv mkdir failed: ${r.stderr}`);
  assert.equal(statSync(dir).uid, 65534);
}

describe('state directory and private sandbox directory', () => {
  after(() => dirs.cleanup());

  test('a fresh state directory and its private sandbox directory are created 0700 (legit)', () => {
    const state = join(dirs.root, 'fresh', 'state');
    const r = start(state);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(statSync(state).mode & 0o777, 0o700);
    assert.equal(statSync(join(state, 'sandbox')).mode & 0o777, 0o700);
  });

  test('a state directory pre-created by another user stops start-up', () => {
    const state = join(shared('shared-a'), 'wb-state');
    mkdirAsOther(state);
    refused(state, /state directory .*wb-state is refused/, /owned by uid 65534/);
    assert.equal(existsSync(join(state, 'api-token')), false);
  });

  test('a private sandbox directory pre-created by another user stops start-up', () => {
    const state = join(shared('shared-b'), 'wb-state');
    mkdirSync(state, { mode: 0o700 });
    chmodSync(state, 0o777); // the other user needs to get in to plant it
    mkdirAsOther(join(state, 'sandbox'));
    chmodSync(state, 0o700);
    refused(state, /private sandbox directory .*sandbox is refused/, /owned by uid 65534/);
  });

  test('a state directory with mode 0777 stops start-up', () => {
    const state = join(dirs.root, 'loose-state');
    mkdirSync(state);
    chmodSync(state, 0o777);
    refused(state, /state directory .* is refused/, /writable by others \(mode 777\)/);
  });

  test('a private sandbox directory with mode 0770 stops start-up', () => {
    const state = join(dirs.root, 'group-sandbox');
    mkdirSync(join(state, 'sandbox'), { recursive: true, mode: 0o700 });
    chmodSync(join(state, 'sandbox'), 0o770);
    refused(state, /private sandbox directory .* is refused/, /writable by its group/);
  });

  test('a symbolic link on the state directory\'s path stops start-up', () => {
    const real = join(dirs.root, 'real-parent');
    mkdirSync(join(real, 'state'), { recursive: true, mode: 0o700 });
    symlinkSync(real, join(dirs.root, 'link-parent'));
    refused(join(dirs.root, 'link-parent', 'state'), /state directory .* is refused/, /link-parent is a symbolic link/);
    symlinkSync(join(real, 'state'), join(dirs.root, 'link-state'));
    refused(join(dirs.root, 'link-state'), /state directory .* is refused/, /link-state is a symbolic link/);
  });

  test('a component owned by another user above the state directory stops start-up', () => {
    const parent = join(dirs.root, 'foreign-parent');
    mkdirSync(parent, { mode: 0o755 });
    chownSync(parent, 65534, 65534);
    refused(join(parent, 'state'), /state directory .* is refused/, /foreign-parent is owned by uid 65534/);
    assert.equal(existsSync(join(parent, 'state')), false, 'nothing is created under a foreign directory');
  });

  // F12: `workbench token` writes the API token; it must refuse the same directories stdio/serve refuse.
  const tokenIn = (state: string) =>
    spawnSync(process.execPath, [MAIN, 'token'], { env: { ...process.env, WORKBENCH_HOME: state }, encoding: 'utf8', timeout: 15_000 });
  test('workbench token refuses a state directory behind a symbolic link, and writes no token', () => {
    const real = join(dirs.root, 'token-real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(dirs.root, 'token-link'));
    const r = tokenIn(join(dirs.root, 'token-link', 'st'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /token-link is a symbolic link/);
    assert.equal(r.stdout, '', 'no token printed');
    assert.equal(existsSync(join(real, 'st', 'api-token')), false);
  });

  test('workbench token refuses a state directory under a group-writable directory', () => {
    const parent = join(dirs.root, 'token-group');
    mkdirSync(parent);
    chmodSync(parent, 0o775);
    const r = tokenIn(join(parent, 'st'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /writable by its group/);
    assert.equal(existsSync(join(parent, 'st')), false, 'nothing is created there');
  });

  test('workbench token in a fresh state directory prints a token and keeps it 0600 (legit)', () => {
    const state = join(dirs.root, 'token-fresh', 'st');
    const r = tokenIn(state);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\S{20,}\n$/);
    assert.equal(statSync(state).mode & 0o777, 0o700);
    const file = join(state, 'api-token');
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test('workbench audit refuses a foreign state directory as well', () => {
    const state = join(dirs.root, 'audit-state');
    mkdirSync(state);
    chmodSync(state, 0o777);
    const r = spawnSync(process.execPath, [MAIN, 'audit'], { env: { ...process.env, WORKBENCH_HOME: state }, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /writable by others/);
  });
});

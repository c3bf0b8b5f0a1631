// checkPath(): roots, system dirs, secrets, state dir, symlinks and traversal, on a real temp tree.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkPath } from '../../src/policy/paths.js';
import { FAKE_HOME, makeFixture } from './fixture.js';

const fx = makeFixture();
after(() => fx.cleanup());

function result(p: string, opts: { write?: boolean; lenient?: boolean; recursive?: boolean } = {}, profile: 'read-only' | 'workspace-write' = 'read-only'): string {
  const r = checkPath(p, fx.ws, fx.ctx(profile), opts);
  return r.ok ? `ok:${r.real}` : r.rule;
}

describe('checkPath', () => {
  it('resolves relative paths against cwd and returns the realpath', () => assert.equal(result('a'), `ok:${fx.ws}/a`));
  it('accepts a path that does not exist yet inside the roots', () => assert.equal(result('new/dir/file'), `ok:${fx.ws}/new/dir/file`));
  it('accepts system directories for reads', () => {
    for (const p of ['/usr/bin/ls', '/etc/os-release', '/proc/meminfo', '/proc/1/cmdline', '/dev/null', '/tmp']) assert.match(result(p), /^ok:/, p);
  });
  it('refuses secrets', () => {
    for (const p of ['/etc/shadow', '/proc/self/environ', '/proc/12/mem', `${FAKE_HOME}/.ssh/id_rsa`, '/root/.aws/credentials', 'link-shadow']) {
      assert.equal(result(p), 'path.sensitive', p);
    }
  });
  it('refuses the state directory, directly or through a symlink', () => {
    assert.equal(result(`${fx.state}/api-key`), 'path.state_dir');
    assert.equal(result('link-state/api-key'), 'path.state_dir');
  });
  it('names symlink escapes, traversal, home and other places', () => {
    assert.equal(result('link-out/x'), 'path.symlink_escape');
    assert.equal(result('../../../../var/lib/x'), 'path.traversal');
    assert.equal(result(`${FAKE_HOME}/notes`), 'path.home');
    assert.equal(result('/srv/data'), 'path.outside_roots');
  });
  it('/tmp is readable and writable only when it is private (bubblewrap); otherwise it is the shared host /tmp', () => {
    const shared = fx.ctx('workspace-write', { privateTmp: false });
    const r1 = checkPath('/tmp/other-users-file', fx.ws, shared);
    assert.ok(!r1.ok && r1.rule === 'path.outside_roots');
    const r2 = checkPath('/tmp/x', fx.ws, shared, { write: true });
    assert.ok(!r2.ok && r2.rule === 'path.outside_roots');
    assert.ok(checkPath('/tmp/x', fx.ws, fx.ctx('workspace-write', { privateTmp: true }), { write: true }).ok);
  });
  it('errors carry path_denied', () => {
    const r = checkPath('/etc/shadow', fx.ws, fx.ctx('read-only'));
    assert.ok(!r.ok && r.errorClass === 'path_denied');
  });
  it('writes need the write roots (or the private /tmp)', () => {
    assert.equal(result('out.txt', { write: true }), 'path.outside_roots');
    assert.equal(result('out.txt', { write: true }, 'workspace-write'), `ok:${fx.ws}/out.txt`);
    assert.equal(result('/etc/hosts', { write: true }, 'workspace-write'), 'path.outside_roots');
    assert.match(result('/tmp/x', { write: true }, 'workspace-write'), /^ok:/);
  });
  it('lenient mode refuses only secrets and the state dir', () => {
    assert.match(result('/srv/data', { lenient: true }), /^ok:/);
    assert.equal(result('/etc/shadow', { lenient: true }), 'path.sensitive');
  });
  it('recursive reads of directories holding secrets are refused', () => {
    assert.equal(result('/etc', { recursive: true }), 'path.sensitive');
    assert.match(result('/etc/nginx', { recursive: true }), /^ok:/);
    assert.match(result('.', { recursive: true }), /^ok:/);
  });
});

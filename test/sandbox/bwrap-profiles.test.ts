// What a confined command can see and change, per profile, checked by effects on the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { box, sandboxFor, sh, skipWithoutBwrap } from './sandbox-fixture.js';

test('read-only: the workspace is readable but not writable', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  try {
    writeFileSync(join(b.workspace, 'notes.txt'), 'workspace content');
    const read = await sh('cat notes.txt', sandboxFor(b, 'read-only'));
    assert.equal(read.stdout, 'workspace content');
    assert.ok(read.sandbox.includes('bubblewrap'), read.sandbox.join(','));
    const attacks = ['touch new.txt', 'echo x > notes.txt', 'mkdir sub', 'rm notes.txt', 'touch /tmp/../usr/x'];
    for (const a of attacks) {
      const r = await sh(a, sandboxFor(b, 'read-only'));
      assert.notEqual(r.exit_code, 0, `${a} should fail`);
    }
    assert.equal(readFileSync(join(b.workspace, 'notes.txt'), 'utf8'), 'workspace content');
    assert.ok(!existsSync(join(b.workspace, 'new.txt')) && !existsSync(join(b.workspace, 'sub')));
  } finally {
    b.cleanup();
  }
});

test('workspace-write: the workspace is writable, the system is not', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const tag = `wb-marker-${process.pid}-${Date.now()}`;
  const outside = [`/usr/${tag}`, `/etc/${tag}`, `/opt/${tag}`, `/var/log/${tag}`, `/usr/bin/${tag}`];
  // The workspace's parent lies in the private /tmp: writing there may succeed, but never reaches the host.
  const besideWorkspace = join(b.root, tag);
  try {
    const ok = await sh('echo made > made.txt && mkdir -p d/e && echo $HOME > d/e/home', sandboxFor(b, 'workspace-write'));
    assert.equal(ok.exit_code, 0, ok.stderr);
    assert.equal(readFileSync(join(b.workspace, 'made.txt'), 'utf8'), 'made\n');
    for (const p of outside) {
      const r = await sh(`touch ${p}`, sandboxFor(b, 'workspace-write'));
      assert.notEqual(r.exit_code, 0, `touch ${p} should fail`);
      assert.ok(!existsSync(p), `${p} must not appear on the host`);
    }
    await sh(`touch ${besideWorkspace}`, sandboxFor(b, 'workspace-write'));
    assert.ok(!existsSync(besideWorkspace), 'a write next to the workspace stays in the private /tmp');
  } finally {
    for (const p of outside) rmSync(p, { force: true });
    b.cleanup();
  }
});

test('/tmp is private per run, yet a workspace under /tmp stays visible', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const hostMarker = `/tmp/wb-host-${process.pid}-${Date.now()}`;
  const runMarker = `/tmp/wb-run-${process.pid}-${Date.now()}`;
  writeFileSync(hostMarker, 'host secret');
  try {
    assert.ok(b.workspace.startsWith('/tmp/'), 'the test relies on a workspace under /tmp');
    const first = await sh(`test ! -e ${hostMarker} && touch ${runMarker} && test -e ${runMarker} && ls ${b.workspace}`, sandboxFor(b, 'workspace-write'));
    assert.equal(first.exit_code, 0, first.stderr);
    assert.ok(!existsSync(runMarker), 'a file written to the private /tmp must not reach the host /tmp');
    const second = await sh(`test -e ${runMarker}`, sandboxFor(b, 'workspace-write'));
    assert.equal(second.exit_code, 1, 'the next run gets a fresh /tmp');
  } finally {
    rmSync(hostMarker, { force: true });
    rmSync(runMarker, { force: true });
    b.cleanup();
  }
});

test('secrets under /etc are masked; the rest of /etc is readable', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  try {
    for (const f of ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'].filter(existsSync)) {
      const r = await sh(`cat ${f}`, sandboxFor(b, 'read-only'));
      assert.notEqual(r.exit_code, 0, `cat ${f} should fail`);
      assert.equal(r.stdout, '');
    }
    const priv = existsSync('/etc/ssl/private') ? await sh('ls -A /etc/ssl/private', sandboxFor(b, 'read-only')) : undefined;
    if (priv) assert.equal(priv.stdout, '', 'private keys directory is empty inside');
    const legit = await sh('cat /etc/passwd /etc/os-release >/dev/null && head -1 /proc/meminfo && id -u', sandboxFor(b, 'read-only'));
    assert.equal(legit.exit_code, 0, legit.stderr);
    assert.match(legit.stdout, /^MemTotal:/);
  } finally {
    b.cleanup();
  }
});

test('home, credentials and the state dir are invisible, also when the workspace is inside home', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const ws = join(b.home, 'proj');
  const state = join(b.home, '.local/state/workbench');
  try {
    mkdirSync(ws);
    mkdirSync(state, { recursive: true });
    writeFileSync(join(ws, 'code.txt'), 'code');
    writeFileSync(join(b.home, '.ssh/id_rsa'), 'PRIVATE KEY');
    writeFileSync(join(b.home, 'diary.txt'), 'diary');
    writeFileSync(join(state, 'api-key'), 'APIKEY');
    const opts = sandboxFor(b, 'workspace-write', { readRoots: [ws], writeRoots: [ws], workspaceRoots: [ws], stateDir: state, cwd: ws });
    const r = await sh(`cat code.txt; echo; echo "$HOME"; ls -A "$HOME"; touch "$HOME/.history" && echo home-writable`, opts);
    assert.equal(r.stdout, `code\n${b.home}\nproj\nhome-writable\n`, r.stderr);
    for (const secret of [join(b.home, '.ssh/id_rsa'), join(b.home, 'diary.txt'), join(state, 'api-key')]) {
      const s = await sh(`cat ${secret}`, opts);
      assert.notEqual(s.exit_code, 0, `${secret} should be invisible`);
    }
    assert.ok(!existsSync(join(b.home, '.history')), 'the private HOME does not write through to the real one');
  } finally {
    b.cleanup();
  }
});

test('an explicit root of the whole home still hides ~/.ssh and the state dir', async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const state = join(b.home, '.local/state/workbench');
  try {
    mkdirSync(state, { recursive: true });
    writeFileSync(join(b.home, '.ssh/id_rsa'), 'PRIVATE KEY');
    writeFileSync(join(state, 'api-key'), 'APIKEY');
    writeFileSync(join(b.home, 'readme.txt'), 'readme');
    const opts = sandboxFor(b, 'workspace-write', { readRoots: [b.home], writeRoots: [b.home], workspaceRoots: [b.home], stateDir: state, cwd: b.home });
    const r = await sh(`cat readme.txt; cat .ssh/id_rsa; cat ${state}/api-key; rm -rf .ssh/id_rsa`, opts);
    assert.equal(r.stdout, 'readme');
    assert.equal(readFileSync(join(b.home, '.ssh/id_rsa'), 'utf8'), 'PRIVATE KEY');
  } finally {
    b.cleanup();
  }
});

test("the server's environment is unreachable through /proc", async (t) => {
  if (skipWithoutBwrap(t)) return;
  const b = box();
  const secret = `wb-server-secret-${Date.now()}`;
  process.env.WB_TEST_SERVER_SECRET = secret;
  try {
    const direct = await sh(`cat /proc/${process.pid}/environ`, sandboxFor(b, 'workspace-write'));
    assert.notEqual(direct.exit_code, 0);
    const sweep = await sh('cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"; ls -d /proc/[0-9]* | wc -l', sandboxFor(b, 'workspace-write'));
    assert.ok(!sweep.stdout.includes(secret), 'no process visible inside carries the server env');
    assert.ok(Number(sweep.stdout.trim().split('\n').pop()) < 10, 'only the sandbox processes are listed');
  } finally {
    delete process.env.WB_TEST_SERVER_SECRET;
    b.cleanup();
  }
});

// Secret paths are masked whether or not they exist yet (SPEC §4.1a): with the home directory as a
// write root, a confined command cannot create ~/.ssh/authorized_keys or credentials files at their
// own paths; it can still work in the rest of home. Effects on the host are checked. The person's
// configuration is not among them: start-up refuses a write root that holds its location (a
// renamed parent defeats any leaf mount; test/e2e/person-config.test.ts), so the home here keeps
// its config elsewhere, as XDG_CONFIG_HOME outside home would.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { box, caps, sandboxFor, sh, skipWithoutBwrap, type Box } from './sandbox-fixture.js';

/** Attacks: each writes a file that must not exist on the host afterwards (with that content). */
const ATTACKS: Array<[string, string]> = [
  ['ssh authorized_keys', 'mkdir -p ~/.ssh; echo attacker-key >> ~/.ssh/authorized_keys'],
  ['aws credentials', 'mkdir -p ~/.aws; echo attacker-key > ~/.aws/credentials'],
  ['netrc', 'echo attacker-key > ~/.netrc'],
  ['docker config', 'mkdir -p ~/.docker; echo attacker-key > ~/.docker/config.json'],
  ['maven settings', 'mkdir -p ~/.m2; echo attacker-key > ~/.m2/settings.xml'],
];
const PLANTED = ['.ssh/authorized_keys', '.aws/credentials', '.netrc', '.docker/config.json', '.m2/settings.xml'];

/** Legit work in a writable home must keep working. */
const LEGIT: Array<[string, string, string]> = [
  ['a project file', 'mkdir -p ~/project && echo hi > ~/project/notes.txt', 'project/notes.txt'],
  ['a tool cache', 'mkdir -p ~/.cache/tool && echo c > ~/.cache/tool/x', '.cache/tool/x'],
  ['another ~/.config entry', 'mkdir -p ~/.config/other && echo o > ~/.config/other/rc', '.config/other/rc'],
];

function homeRoot(b: Box) {
  return sandboxFor(b, 'workspace-write', {
    readRoots: [b.home],
    writeRoots: [b.home],
    workspaceRoots: [b.home],
    cwd: b.home,
    // XDG_CONFIG_HOME outside home: the only way home can be a write root (see the header).
    configPaths: [join(b.root, 'xdg-config', 'workbench')],
  });
}

describe('missing secrets under a writable home root', () => {
  test('cannot be created by a confined command; placeholders are neutral and private', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    rmSync(join(b.home, '.ssh'), { recursive: true, force: true });
    const r = await sh(ATTACKS.map(([, s]) => `( ${s} ) 2>/dev/null`).join('; ') + '; echo done', homeRoot(b));
    assert.match(r.stdout, /done/);
    for (const rel of PLANTED) {
      const p = join(b.home, rel);
      const content = existsSync(p) && statSync(p).isFile() ? readFileSync(p, 'utf8') : '';
      assert.doesNotMatch(content, /attacker-key/, `${rel} was written from the sandbox`);
    }
    assert.equal(existsSync(join(b.home, '.ssh', 'authorized_keys')), false);
    assert.equal(statSync(join(b.home, '.ssh')).mode & 0o777, 0o700);
    assert.equal(statSync(join(b.home, '.netrc')).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(b.home, '.docker', 'config.json'), 'utf8'), '{}\n', 'JSON placeholders parse');
    assert.equal(readFileSync(join(b.home, '.m2', 'settings.xml'), 'utf8'), '<settings/>\n');
  });

  for (const [name, script, rel] of LEGIT) {
    test(`legit: ${name} is still writable`, async (t) => {
      if (skipWithoutBwrap(t)) return;
      const b = box();
      t.after(() => b.cleanup());
      const r = await sh(script, homeRoot(b));
      assert.equal(r.exit_code, 0, r.stderr);
      assert.ok(existsSync(join(b.home, rel)), `${rel} should exist`);
    });
  }

  // What the masks cannot do: a leaf mount moves with its renamed parent. Reads of existing secrets
  // stay hidden (the mask moves along and still hides them); what is written under the old name
  // afterwards is a new file the person's tools may read. This is documented in bwrap-mounts.ts
  // and why a write root holding the configuration location is refused at start-up.
  test('renaming the parent of a masked secret does not reveal the secret it hid', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    mkdirSync(join(b.home, '.docker'), { recursive: true });
    writeFileSync(join(b.home, '.docker', 'config.json'), '{"auths":{"x":{"auth":"canary-docker-7c1e"}}}\n');
    const r = await sh('mv ~/.docker ~/.docker-old; cat ~/.docker-old/config.json; cat ~/.docker/config.json; echo done', homeRoot(b));
    assert.match(r.stdout, /done/);
    assert.doesNotMatch(r.stdout + r.stderr, /canary-docker-7c1e/);
  });

  test('with home read-only nothing is created on the host', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    rmSync(join(b.home, '.ssh'), { recursive: true, force: true });
    mkdirSync(join(b.home, 'project'));
    const r = await sh('ls ~ >/dev/null; echo done', sandboxFor(b, 'read-only', { readRoots: [b.home], workspaceRoots: [b.home], cwd: b.home }));
    assert.match(r.stdout, /done/);
    assert.equal(existsSync(join(b.home, '.ssh')), false);
    assert.equal(existsSync(join(b.home, '.netrc')), false);
    assert.ok(caps().bubblewrap.works);
  });

  test('a secret kept behind a symbolic link (dotfiles) is masked at its target', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    rmSync(join(b.home, '.ssh'), { recursive: true, force: true });
    mkdirSync(join(b.home, 'dotfiles', 'ssh'), { recursive: true });
    writeFileSync(join(b.home, 'dotfiles', 'ssh', 'id_rsa'), 'PRIVATE-KEY-canary-51f0\n');
    symlinkSync(join(b.home, 'dotfiles', 'ssh'), join(b.home, '.ssh'));
    const ro = sandboxFor(b, 'read-only', { readRoots: [b.home], workspaceRoots: [b.home], cwd: b.home });
    const r = await sh('cat ~/.ssh/id_rsa ~/dotfiles/ssh/id_rsa; echo done', ro);
    assert.match(r.stdout, /done/);
    assert.doesNotMatch(r.stdout + r.stderr, /canary-51f0/);
  });

  test('a symbolic link secret inside a writable root refuses the run (it could be replaced)', async (t) => {
    if (skipWithoutBwrap(t)) return;
    const b = box();
    t.after(() => b.cleanup());
    rmSync(join(b.home, '.ssh'), { recursive: true, force: true });
    mkdirSync(join(b.home, 'dotfiles', 'ssh'), { recursive: true });
    symlinkSync(join(b.home, 'dotfiles', 'ssh'), join(b.home, '.ssh'));
    const marker = join(b.root, 'marker-link');
    await assert.rejects(sh(`touch ${marker}`, homeRoot(b)), /symbolic link inside a write root/);
    assert.equal(existsSync(marker), false);
  });
});

// Trust comes only from the person (SPEC §4.1a): the config is read from --config, the person's XDG
// config dir or /etc/workbench — never from the working directory or a workspace — and a config
// another user or the agent could have written stops start-up. Effects: markers that must not appear.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio, MAIN } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

const FULL = '[policy]\nprofile = "full"\n';

/** The person's environment for a test: its own HOME and XDG config dir (empty), its own state. */
function personEnv(root: string, state: string): Record<string, string> {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), WORKBENCH_HOME: state };
}

async function run(client: Client, command: unknown, cwd: string): Promise<Record<string, any>> {
  const r = await client.callTool({ name: 'run_command', arguments: { command, cwd } });
  return r.structuredContent as Record<string, any>;
}

/** Starts `workbench stdio ARGS` that must refuse: exit 2 and one line on stderr. */
function startRefused(args: string[], env: Record<string, string>, cwd: string) {
  const r = spawnSync(process.execPath, [MAIN, 'stdio', ...args], { env: { ...process.env, ...env }, cwd, input: '', encoding: 'utf8', timeout: 15_000 });
  assert.equal(r.status, 2, `expected a refused start-up, got ${r.status}: ${r.stderr}`);
  return r.stderr;
}

describe('the config comes only from the person', () => {
  const dirs = tempDirs();
  after(() => dirs.cleanup());

  test('a repository shipping workbench.toml (profile full) started in it stays read-only', async (t) => {
    writeFileSync(join(dirs.workspace, 'workbench.toml'), FULL);
    const marker = join(dirs.root, 'marker-repo-config');
    const conn = await connectStdio({ workspace: dirs.workspace, state: dirs.state, env: personEnv(dirs.root, dirs.state) });
    t.after(() => conn.close());
    const sh = await run(conn.client, ['sh', '-c', `touch ${marker}`], dirs.workspace);
    assert.equal(sh.success, false);
    assert.equal(sh.error_class, 'policy_denied', JSON.stringify(sh));
    const shadow = await run(conn.client, ['cat', '/etc/shadow'], dirs.workspace);
    assert.equal(shadow.success, false);
    assert.equal(existsSync(marker), false, 'the repository config must not have made the profile full');
    assert.match(conn.stderr(), /workbench\.toml is not read/);
  });

  test('the person\'s XDG config is read (legit)', async (t) => {
    const env = personEnv(dirs.root, dirs.state);
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'workbench'), { recursive: true, mode: 0o700 });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'workbench', 'config.toml'), '[policy]\nprofile = "workspace-write"\n', { mode: 0o600 });
    const conn = await connectStdio({ workspace: dirs.workspace, state: dirs.state, env });
    t.after(() => conn.close());
    const r = await run(conn.client, ['sh', '-c', 'echo made > made-by-agent.txt'], dirs.workspace);
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(readFileSync(join(dirs.workspace, 'made-by-agent.txt'), 'utf8'), 'made\n');
  });

  const refusals: Array<[string, (file: string) => void, RegExp]> = [
    ['mode 0666', (f) => chmodSync(f, 0o666), /writable by (its group|others)/],
    ['mode 0620 (group-writable)', (f) => chmodSync(f, 0o620), /writable by its group/],
    ['owned by another user', (f) => chownSync(f, 65534, 65534), /owned by uid 65534/],
    ['in a directory others can write', (f) => chmodSync(join(f, '..'), 0o777), /writable by others/],
  ];
  for (const [name, spoil, why] of refusals) {
    test(`a config file ${name} stops start-up saying why`, () => {
      const env = personEnv(dirs.root, dirs.state);
      const dir = join(dirs.root, `cfg-${name.replace(/\W+/g, '-')}`);
      mkdirSync(dir, { mode: 0o700 });
      const file = join(dir, 'config.toml');
      writeFileSync(file, FULL, { mode: 0o600 });
      spoil(file);
      const err = startRefused(['--config', file, '--root', dirs.workspace], env, dirs.workspace);
      assert.match(err, /config .* is refused/);
      assert.match(err, why);
    });
  }

  test('the default XDG config file writable by others stops start-up too', () => {
    const env = personEnv(dirs.root, dirs.state);
    const dir = join(env.XDG_CONFIG_HOME!, 'workbench');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.toml'), FULL, { mode: 0o600 });
    chmodSync(join(dir, 'config.toml'), 0o666);
    const err = startRefused(['--root', dirs.workspace], env, dirs.workspace);
    assert.match(err, /writable by others/);
    chmodSync(join(dir, 'config.toml'), 0o600);
  });

  test('a config file inside a write root stops start-up (the agent could rewrite its policy)', () => {
    const env = personEnv(dirs.root, dirs.state);
    const file = join(dirs.workspace, 'my-policy.toml');
    writeFileSync(file, '[policy]\nprofile = "workspace-write"\n', { mode: 0o600 });
    const err = startRefused(['--config', file, '--root', dirs.workspace], env, dirs.workspace);
    assert.match(err, /write root .* is refused: it contains .*my-policy\.toml/);
  });

  test('a config file with another hard link inside a write root stops start-up (F8)', () => {
    const env = personEnv(dirs.root, dirs.state);
    const dir = join(dirs.root, 'cfg-hardlink');
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'config.toml');
    writeFileSync(file, '[policy]\nprofile = "workspace-write"\n', { mode: 0o600 });
    linkSync(file, join(dirs.workspace, 'notes.toml'));
    const err = startRefused(['--config', file, '--root', dirs.workspace], env, dirs.workspace);
    assert.match(err, /config .*config\.toml is refused: it has other hard links/);
    assert.match(err, /copy it to a file of its own/);
    // Also with the other name outside every root: a file of its own is the rule.
    rmSync(join(dirs.workspace, 'notes.toml'));
    linkSync(file, join(dirs.root, 'backup.toml'));
    assert.match(startRefused(['--config', file, '--root', dirs.workspace], env, dirs.workspace), /other hard links/);
    rmSync(join(dirs.root, 'backup.toml'));
  });

  test('config init writes the person\'s config file (0600 in a 0700 dir) where Workbench reads it', () => {
    const env = personEnv(join(dirs.root, 'init'), dirs.state);
    const r = spawnSync(process.execPath, [MAIN, 'config', 'init'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const file = join(env.XDG_CONFIG_HOME!, 'workbench', 'config.toml');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(file, '..')).mode & 0o777, 0o700);
  });
});

describe('a write root that holds the person\'s configuration location is refused (F5)', () => {
  const dirs = tempDirs();
  after(() => dirs.cleanup());

  /** A home whose config location does not exist yet: creating it is the attack. */
  function freshHome(name: string) {
    const env = personEnv(join(dirs.root, name), dirs.state);
    const project = join(env.HOME!, 'project');
    mkdirSync(project);
    return { env, home: env.HOME!, project };
  }

  // Attacks: each start must stop with exit 2 and a reason, before any request is read.
  test('home as a workspace-write root, config dir not created yet: refused saying why and what to do', () => {
    const { env, home } = freshHome('h1');
    const err = startRefused(['--root', home, '--profile', 'workspace-write'], env, home);
    assert.match(err, /write root .*h1\/home is refused: it contains .* your configuration .*workbench\/config\.toml/);
    assert.match(err, /rename|renaming/);
    assert.match(err, /use a project directory as the root/);
    assert.equal(existsSync(join(home, '.config')), false, 'nothing was created in home');
  });

  test('home as a root with the config present, and ~/.config as a root: refused', () => {
    const { env, home } = freshHome('h2');
    mkdirSync(join(home, '.config', 'workbench'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, '.config', 'workbench', 'config.toml'), '[policy]\nprofile = "workspace-write"\n', { mode: 0o600 });
    assert.match(startRefused(['--root', home], env, home), /write root .* is refused: it contains/);
    assert.match(startRefused(['--root', join(home, '.config'), '--profile', 'workspace-write'], env, home), /write root .*\.config is refused/);
    assert.match(startRefused(['--root', join(home, '.config', 'workbench'), '--profile', 'workspace-write'], env, home), /is refused: it contains/);
  });

  test('a config location reached through a symbolic link into a write root is refused', () => {
    const { env, project } = freshHome('h3');
    // ~/.config/workbench -> project/cfg (dotfiles kept in the workspace): the agent could write it.
    mkdirSync(join(env.HOME!, '.config'));
    symlinkSync(join(project, 'cfg'), join(env.HOME!, '.config', 'workbench'));
    assert.match(startRefused(['--root', project, '--profile', 'workspace-write'], env, project), /write root .*project is refused: it contains .*project/);
  });

  test('full profile with home as the workspace is refused too; read-only home is fine', async (t) => {
    const { env, home } = freshHome('h4');
    assert.match(startRefused(['--root', home, '--profile', 'full'], env, home), /is refused: it contains/);
    const conn = await connectStdio({ workspace: home, state: dirs.state, profile: 'read-only', env });
    t.after(() => conn.close());
    const r = await run(conn.client, ['ls', '-a'], home);
    assert.equal(r.success, true, JSON.stringify(r));
  });

  // Legit: a project under home, and a home root whose configuration lives elsewhere.
  test('legit: a project directory under home is a write root; the config dir beside it stays the person\'s', async (t) => {
    const { env, home, project } = freshHome('h5');
    const conn = await connectStdio({ workspace: project, state: dirs.state, profile: 'workspace-write', env });
    t.after(() => conn.close());
    const r = await run(conn.client, ['sh', '-c', 'echo ok > legit.txt'], project);
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(readFileSync(join(project, 'legit.txt'), 'utf8'), 'ok\n');
    assert.equal(existsSync(join(home, '.config')), false);
  });

  test('legit: home as a write root when XDG_CONFIG_HOME is outside it', async (t) => {
    const { env, home } = freshHome('h6');
    const elsewhere = join(dirs.root, 'h6', 'cfg');
    const conn = await connectStdio({ workspace: home, state: dirs.state, profile: 'workspace-write', env: { ...env, XDG_CONFIG_HOME: elsewhere } });
    t.after(() => conn.close());
    const r = await run(conn.client, ['sh', '-c', 'mkdir -p ~/project && echo ok > ~/project/legit.txt'], home);
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(readFileSync(join(home, 'project', 'legit.txt'), 'utf8'), 'ok\n');
  });
});

describe('an agent writing config files is not read as policy on restart', () => {
  const dirs = tempDirs();
  after(() => dirs.cleanup());

  test('workspace-write agent: workbench.toml in its workspace is not policy on restart', async (t) => {
    const env = personEnv(dirs.root, dirs.state);
    const project = join(env.HOME!, 'project');
    mkdirSync(project);
    const conn = await connectStdio({ workspace: project, state: dirs.state, profile: 'workspace-write', env });
    t.after(() => conn.close());
    const script = [
      `printf '${FULL.replace(/\n/g, '\\n')}' > ${project}/workbench.toml`,
      // Outside the root: neither the config location nor home can be written.
      'mkdir -p ~/.config/workbench; printf "[policy]\\nprofile = \\"full\\"\\n" > ~/.config/workbench/config.toml',
      'echo ok > legit.txt',
      'true',
    ].join('; ');
    const r = await run(conn.client, ['sh', '-c', script], project);
    assert.equal(r.success, true, JSON.stringify(r));
    assert.equal(readFileSync(join(project, 'legit.txt'), 'utf8'), 'ok\n');
    assert.equal(existsSync(join(env.HOME!, '.config', 'workbench', 'config.toml')), false, 'config.toml must not have been created');
    await conn.close();

    const marker = join(dirs.root, 'marker-restart');
    const again = await connectStdio({ workspace: project, state: dirs.state, env });
    t.after(() => again.close());
    const sh = await run(again.client, ['sh', '-c', `touch ${marker}`], project);
    assert.equal(sh.error_class, 'policy_denied', JSON.stringify(sh));
    assert.equal(existsSync(marker), false);
  });
});

// Red team, issue 10 finding 4 and the "helpers run confined" rule: the adapters' helper programs
// (pip/python3, npm, git, rg, systemctl) run confined, isolated, and never in the workspace.
// Effect-based: a marker file that must not appear, canaries that must not come back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { gitTools } from '../../src/control/tools/adapters-git.js';
import { systemTools } from '../../src/control/tools/adapters-system.js';
import { managerSpec, PIP_ARGS } from '../../src/data/packages/package-managers.js';
import { serviceStatus } from '../../src/data/services/service-status.js';
import { whichSystem } from '../../src/sandbox/capabilities.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';
import { connectStdio } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

/** A workspace that shadows pip (pip.py, a pip package, sitecustomize) with modules writing `marker`. */
function plantPip(ws: string, marker: string): void {
  const payload = `import pathlib; pathlib.Path(${JSON.stringify(marker)}).write_text('ran'); print('[]')\n`;
  writeFileSync(join(ws, 'pip.py'), payload);
  mkdirSync(join(ws, 'pip'), { recursive: true });
  writeFileSync(join(ws, 'pip', '__init__.py'), payload);
  writeFileSync(join(ws, 'pip', '__main__.py'), payload);
  writeFileSync(join(ws, 'sitecustomize.py'), payload);
  writeFileSync(join(ws, 'usercustomize.py'), payload);
}

const python3 = whichSystem('python3');

test('fixture check: a raw `python3 -m pip` in the workspace does run the planted pip.py (so the next test can fail)', (t) => {
  if (!python3) return t.skip('python3 is not installed');
  const d = tempDirs('wb-pip-ctl-');
  try {
    const marker = join(d.root, 'pip-ran');
    plantPip(d.workspace, marker);
    spawnSync(python3, ['-m', 'pip', 'list', '--format=json'], { cwd: d.workspace, stdio: 'ignore', timeout: 20_000 });
    assert.equal(existsSync(marker), true);
  } finally {
    d.cleanup();
  }
});

for (const [label, configToml] of [['sandbox', undefined], ['bubblewrap off', '[sandbox]\nbubblewrap = "off"\n']] as const) {
  test(`finding 4 (${label}): package_list pip from a server started in the workspace runs no workspace code`, async (t) => {
    if (!python3) return t.skip('python3 is not installed');
    const d = tempDirs('wb-pip-');
    const marker = join(d.root, 'pip-ran');
    plantPip(d.workspace, marker);
    // Like `npm start` / `stdio --root "$PWD"`: the server's own working directory is the workspace.
    const conn = await connectStdio({ workspace: d.workspace, state: d.state, configToml });
    try {
      const r = await conn.client.callTool({ name: 'package_list', arguments: { manager: 'pip', limit: 1000 } });
      const s = r.structuredContent as { manager?: string; packages?: Array<{ name: string }>; error_class?: string; error?: string };
      assert.equal(existsSync(marker), false, `a workspace module ran on package_list pip: ${JSON.stringify(s).slice(0, 300)}`);
      if (r.isError) {
        assert.equal(s.error_class, 'unavailable', JSON.stringify(s));
      } else {
        assert.ok(s.packages!.some((p) => p.name === 'pip'), `a real list (pip itself is installed): ${JSON.stringify(s).slice(0, 300)}`);
      }
      if (label === 'bubblewrap off') assert.equal(r.isError, true, 'pip is an interpreter: without confinement it is unavailable');
    } finally {
      await conn.close();
      d.cleanup();
    }
  });
}

test('interpreters isolated: python3 -I (no cwd or user site on sys.path, PYTHON* ignored), npm without lifecycle scripts', () => {
  assert.equal(PIP_ARGS[0], '-I');
  const npm = managerSpec('npm');
  if (npm) assert.equal(npm.env?.npm_config_ignore_scripts, 'true');
});

test('without confinement: git, rg and dpkg-query still answer; pip, npm and brew are unavailable saying why', async () => {
  const d = makeDataDeps({ sandbox: { bubblewrap: 'off' } });
  try {
    const sys = systemTools(d.deps);
    for (const manager of ['pip', 'npm', 'brew'] as const) {
      if (!whichSystem(manager === 'pip' ? 'python3' : manager)) continue;
      const e = await callError(sys, 'package_list', { manager });
      assert.equal(e.errorClass, 'unavailable', manager);
      assert.match(e.message, /runs code it loads from the filesystem.*cannot confine helper programs \(sandbox\.bubblewrap is "off"/, manager);
    }
    if (whichSystem('dpkg-query')) assert.ok((await call(sys, 'package_list', { manager: 'dpkg', filter: 'coreutils' })).data.packages.length > 0);
    writeFileSync(join(d.ws, 'hay.txt'), 'needle-7731\n');
    execFileSync('git', ['init', '-q'], { cwd: d.ws });
    const status = (await call(gitTools(d.deps), 'git_status', { path: d.ws })).data;
    assert.ok(status.entries.some((e: { path: string }) => e.path === 'hay.txt'), JSON.stringify(status));
    const found = (await call(fileTools(d.deps), 'file_search', { query: 'needle-7731', path: d.ws })).data;
    assert.equal(found.matches.length, 1);
  } finally {
    d.cleanup();
  }
});

test('git_diff and file_search over a root that holds the state directory never show its files', async (t) => {
  const d = makeDataDeps();
  try {
    if (!d.deps.capabilities().bubblewrap.works) return t.skip(`bubblewrap cannot confine here: ${d.deps.capabilities().bubblewrap.reason}`);
    const state = join(d.ws, 'state');
    mkdirSync(state);
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
    const git = (...a: string[]) => execFileSync('git', a, { cwd: d.ws, env, stdio: 'pipe' });
    git('init', '-q');
    writeFileSync(join(state, 'api-token'), 'old\n');
    writeFileSync(join(state, 'jobs.log'), 'old\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    // The files change after the commit: an unconfined git diff would print the new contents.
    writeFileSync(join(state, 'api-token'), 'CANARY-token-5d0a\n');
    writeFileSync(join(state, 'jobs.log'), 'CANARY-log-5d0a\n');
    d.deps.runtime.stateDir = state;
    const diff = await call(gitTools(d.deps), 'git_diff', { path: d.ws });
    assert.doesNotMatch(JSON.stringify(diff.data) + diff.text, /CANARY-/);
    const found = (await call(fileTools(d.deps), 'file_search', { query: 'CANARY-', path: d.ws, include_hidden: true })).data;
    assert.deepEqual(found.matches, []);
  } finally {
    d.cleanup();
  }
});

test('service_status: systemctl runs through the launch path; where systemd is not the init, its failure is unavailable', async (t) => {
  const program = whichSystem('systemctl');
  if (!program) return t.skip('systemctl is not installed');
  if (existsSync('/run/systemd/system')) return t.skip('systemd runs here: service_status answers for real (test/data/system.test.ts)');
  const d = makeDataDeps();
  // A stand-in for /run/systemd/system lets the call reach systemctl, which finds no systemd.
  const runDir = mkdtempSync(join(tmpdir(), 'wb-fake-systemd-'));
  try {
    await assert.rejects(serviceStatus(d.deps, undefined, runDir), (e: { errorClass?: string; message: string }) => {
      assert.equal(e.errorClass, 'unavailable');
      assert.match(e.message, /systemctl failed/);
      return true;
    });
  } finally {
    d.cleanup();
  }
});

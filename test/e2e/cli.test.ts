// The CLI surface: --help on every subcommand, doctor (table and JSON), token, and refusals at start-up.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MAIN } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

const dirs = tempDirs();
const run = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, WORKBENCH_HOME: dirs.state }, cwd: dirs.workspace, encoding: 'utf8', timeout: 20_000, input: '' });

describe('workbench CLI', () => {
  after(() => dirs.cleanup());

  test('--help on every subcommand', () => {
    for (const sub of [[], ['stdio'], ['serve'], ['doctor'], ['config', 'init'], ['token'], ['jobs'], ['tasks'], ['audit']]) {
      const r = run(...sub, '--help');
      assert.equal(r.status, 0, `${sub.join(' ')} --help: ${r.stderr}`);
      assert.match(r.stdout, /Usage: workbench/);
    }
  });

  test('doctor --json reports the host facts and active layers', () => {
    const r = run('doctor', '--json', '--root', dirs.workspace);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { profile: string; sandbox_layers: string[]; checks: Array<{ name: string; ok: boolean }> };
    assert.equal(report.profile, 'read-only');
    const names = report.checks.map((c) => c.name);
    for (const n of ['node', 'sqlite', 'bubblewrap', 'user namespaces', 'cgroups', 'ripgrep', 'git']) assert.ok(names.includes(n), n);
    assert.ok(report.sandbox_layers.includes('process-group'));
    const bwrap = report.checks.find((c) => c.name === 'bubblewrap')!;
    assert.equal(report.sandbox_layers.includes('bubblewrap'), bwrap.ok, 'a layer is claimed exactly when its check passes');
  });

  test('doctor prints a table', () => {
    const r = run('doctor', '--root', dirs.workspace);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /active sandbox layers: /);
  });

  test('token is created once, 0600, and stable', () => {
    const a = run('token');
    const b = run('token');
    assert.equal(a.status, 0, a.stderr);
    assert.ok(a.stdout.trim().length >= 32);
    assert.equal(a.stdout, b.stdout);
    assert.equal(statSync(join(dirs.state, 'api-token')).mode & 0o777, 0o600);
  });

  test('serve refuses a non-loopback bind without --allow-remote', () => {
    const r = run('serve', '--host', '0.0.0.0', '--port', '0', '--root', dirs.workspace);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--allow-remote/);
  });

  test('a bad --profile and a missing root are one-line errors', () => {
    const p = run('stdio', '--profile', 'yolo');
    assert.notEqual(p.status, 0);
    assert.match(p.stderr, /--profile must be/);
    const r = run('stdio', '--root', join(dirs.root, 'nope'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /not an existing directory/);
  });
});

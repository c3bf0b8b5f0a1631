// Start-up refuses a bad config with one line naming the key; `config init` writes every default.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'smol-toml';
import { MAIN } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';
import { ConfigSchema } from '../../src/config/schema.js';

const dirs = tempDirs();
function start(toml: string) {
  const file = join(dirs.root, 'bad.toml');
  writeFileSync(file, toml);
  return spawnSync(process.execPath, [MAIN, 'stdio', '--config', file, '--root', dirs.workspace], {
    env: { ...process.env, WORKBENCH_HOME: dirs.state },
    input: '',
    encoding: 'utf8',
    timeout: 15_000,
  });
}

describe('config validation at start-up', () => {
  after(() => dirs.cleanup());
  test('an unknown key stops start-up naming the key', () => {
    const r = start('[jobs]\nmax_runing = 3\n');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown key 'jobs\.max_runing'/);
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  });
  test('a bad value stops start-up naming the key and the expectation', () => {
    const r = start('[jobs]\nmax_running = 100\n');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /'jobs\.max_running'.*<= 64.*100/);
  });
  test('a wrong type names the key', () => {
    const r = start('[policy]\nprofile = "yolo"\n');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /'policy\.profile'/);
  });
  test('invalid TOML is reported', () => {
    const r = start('[jobs\n');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /not valid TOML/);
  });
  test('config init writes a file that parses back to the defaults', () => {
    const file = join(dirs.root, 'init.toml');
    const r = spawnSync(process.execPath, [MAIN, 'config', 'init', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /^# /m);
    assert.deepEqual(ConfigSchema.parse(parse(text)), ConfigSchema.parse({}));
  });
});

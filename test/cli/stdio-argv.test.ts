// The `workbench stdio` fast path: only the plain form skips commander; everything else falls back to it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseStdioArgv } from '../../src/cli/stdio-argv.js';

describe('parseStdioArgv', () => {
  test('plain forms are parsed as commander would', () => {
    const cases: Array<[string[], object]> = [
      [['stdio'], {}],
      [['stdio', '--root', '/a'], { root: ['/a'] }],
      [['stdio', '--root', '/a', '--root', 'b c'], { root: ['/a', 'b c'] }],
      [['stdio', '--config', 'w.toml', '--profile', 'full', '--root', '/a'], { config: 'w.toml', profile: 'full', root: ['/a'] }],
      [['stdio', '--profile', 'read-only'], { profile: 'read-only' }],
      [['stdio', '--profile', 'workspace-write'], { profile: 'workspace-write' }],
    ];
    for (const [argv, flags] of cases) assert.deepEqual(parseStdioArgv(argv), flags, argv.join(' '));
  });

  test('anything else is left to commander (help, errors, other subcommands, unusual spellings)', () => {
    const cases = [
      [],
      ['serve'],
      ['doctor', '--root', '/a'],
      ['stdio', '--help'],
      ['stdio', '-h'],
      ['stdio', '--root'],
      ['stdio', '--root', '--profile', 'full'],
      ['stdio', '--root=/a'],
      ['stdio', '--profile', 'yolo'],
      ['stdio', '--profile', 'full', '--profile', 'read-only'],
      ['stdio', '--config', 'a.toml', '--config', 'b.toml'],
      ['stdio', '--bogus', 'x'],
      ['stdio', 'extra'],
      ['stdio', '--root', '/a', '--'],
    ];
    for (const argv of cases) assert.equal(parseStdioArgv(argv), undefined, argv.join(' '));
  });
});

// The trust walk behind the config, state and private sandbox directories: a table of paths another
// user could have written (refused, with the reason) and a table of ordinary layouts (accepted).
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ensureOwnedDir } from '../../src/config/owned-dir.js';
import { untrustedReason, type TrustRules } from '../../src/config/trusted-path.js';
import { tempDirs } from '../helpers/workspace.js';

const dirs = tempDirs();
const at = (...p: string[]) => join(dirs.root, ...p);

/** [name, set-up returning the path, rules, expected reason]. */
const ATTACKS: Array<[string, () => string, TrustRules, RegExp]> = [
  ['file writable by others', () => file('a1', 0o666), {}, /writable by others/],
  ['file writable by its group', () => file('a2', 0o660), {}, /writable by its group/],
  ['file owned by another user', () => chowned(file('a3', 0o644)), {}, /owned by uid 65534/],
  ['parent directory writable by others (not sticky)', () => { const f = file('a4', 0o600); chmodSync(at('a4'), 0o777); return f; }, {}, /a4 is writable by others/],
  ['parent owned by another user', () => { const f = file('a5', 0o600); chownSync(at('a5'), 65534, 65534); return f; }, {}, /a5 is owned by uid 65534/],
  ['symbolic link on the path of a state dir', () => { mkdirSync(at('a6-real'), { mode: 0o700 }); symlinkSync(at('a6-real'), at('a6')); return at('a6', 'state'); }, { noSymlinks: true }, /a6 is a symbolic link/],
  ['a dir that must be ours owned by root-but-not-us', () => chowned(dir('a7')), { ownedBySelf: true }, /owned by uid 65534/],
];

/** [name, set-up returning the path, rules]. */
const LEGIT: Array<[string, () => string, TrustRules]> = [
  ['0600 file in a 0700 dir', () => file('l1', 0o600), {}],
  ['0644 file in a 0755 dir (readable is fine)', () => { const f = file('l2', 0o644); chmodSync(at('l2'), 0o755); return f; }, {}],
  ['a state dir below the sticky /tmp', () => dir('l3'), { noSymlinks: true, ownedBySelf: true }],
  ['a config reached through a symbolic link (dotfiles)', () => { const f = file('l4', 0o600); symlinkSync(f, at('l4-link.toml')); return at('l4-link.toml'); }, {}],
  ['a path not created yet', () => at('l5', 'not', 'yet'), { noSymlinks: true, ownedBySelf: true }],
];

function dir(name: string): string {
  mkdirSync(at(name), { mode: 0o700 });
  return at(name);
}
function file(name: string, mode: number): string {
  const f = join(dir(name), 'config.toml');
  writeFileSync(f, '', { mode });
  chmodSync(f, mode);
  return f;
}
function chowned(p: string): string {
  chownSync(p, 65534, 65534);
  return p;
}

describe('untrustedReason', () => {
  after(() => dirs.cleanup());
  for (const [name, setup, rules, why] of ATTACKS) test(`refused: ${name}`, () => assert.match(untrustedReason(setup(), rules) ?? 'accepted', why));
  for (const [name, setup, rules] of LEGIT) test(`accepted: ${name}`, () => assert.equal(untrustedReason(setup(), rules), undefined));

  test('ensureOwnedDir creates 0700 and names the component it refuses', () => {
    const made = ensureOwnedDir(at('o1', 'state'), 'state directory', 'fix it');
    assert.equal(made, at('o1', 'state'));
    mkdirSync(at('o2'));
    chmodSync(at('o2'), 0o777);
    assert.throws(() => ensureOwnedDir(at('o2', 'state'), 'state directory', 'fix it'), /state directory .*o2\/state is refused: .*o2 is writable by others.*fix it/);
  });
});

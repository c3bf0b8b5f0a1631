// F5: a write root may not hold any directory the kernel looks in to resolve the person's
// configuration (existing or not): from there a confined command could create the file, or rename
// a parent away from under its read-only mount. Real directories and symbolic links in a temp dir.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { directoriesTraversed, exposedLocation } from '../../src/config/config-location.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-cfgloc-')));
after(() => rmSync(base, { recursive: true, force: true }));
const p = (...xs: string[]) => join(base, ...xs);
for (const d of ['home/.config', 'home/project', 'dotfiles/cfg', 'other/x', 'safe/cfg']) mkdirSync(p(d), { recursive: true });
symlinkSync(p('dotfiles', 'cfg'), p('home', 'linked-config')); // ~/linked-config -> dotfiles/cfg
symlinkSync('../other/x/lnk', p('home', 'rel-link')); // relative hop through other/x/lnk
symlinkSync(p('safe', 'cfg'), p('other', 'x', 'lnk')); // other/x/lnk -> safe/cfg (outside every root)

const CFG = p('home', '.config', 'workbench', 'config.toml');

/** [what, location, write roots, the first directory on the way that lies in a root] */
const ATTACKS: Array<[string, string, string[], string]> = [
  ['home holds the (missing) config dir', CFG, [p('home')], p('home')],
  ['~/.config is the root', CFG, [p('home', '.config')], p('home', '.config')],
  ['the config dir itself is the root', p('safe', 'cfg', 'config.toml'), [p('safe', 'cfg')], p('safe', 'cfg')],
  ['the root is an ancestor far up', CFG, [base], base],
  ['/ as a write root', CFG, ['/'], '/'],
  ['through a link whose target is in the root', p('home', 'linked-config', 'workbench', 'config.toml'), [p('dotfiles')], p('dotfiles')],
  ['a link on the way lies in the root (its target does not)', p('home', 'rel-link', 'workbench', 'config.toml'), [p('other')], p('other')],
];
/** [what, location, write roots] */
const LEGIT: Array<[string, string, string[]]> = [
  ['a project beside the config', CFG, [p('home', 'project')]],
  ['a root inside the config dir cannot rename it', CFG, [p('home', '.config', 'workbench', 'sub')]],
  ['a sibling whose name shares a prefix', CFG, [p('home', '.conf')]],
  ['no write roots (read-only)', CFG, []],
];

describe('a write root holding a directory on the way to the configuration (attacks)', () => {
  for (const [what, location, roots, dir] of ATTACKS) {
    test(what, () => assert.deepEqual(exposedLocation(location, roots), { root: roots[0], dir }));
  }
});

describe('roots that cannot reach the configuration (legit)', () => {
  for (const [what, location, roots] of LEGIT) test(what, () => assert.equal(exposedLocation(location, roots), undefined));
});

test('the walk follows each link hop and stops at the first missing entry', () => {
  const dirs = directoriesTraversed(p('home', 'rel-link', 'workbench', 'config.toml'));
  // home/rel-link -> ../other/x/lnk: the walk goes back to base, through other/x (where lnk is), then to safe/cfg.
  const at = dirs.indexOf(p('home'));
  assert.deepEqual(dirs.slice(at, at + 4), [p('home'), base, p('other'), p('other', 'x')]);
  assert.deepEqual(dirs.slice(-2), [p('safe'), p('safe', 'cfg')], 'workbench/ is missing: nothing below it is looked in');
  assert.equal(dirs[0], '/');
});

// Red team F8: read-only, sandbox.bubblewrap = "off", Workbench's state directory inside the root.
// `git grep --untracked` printed the API token (in two halves, past the redactor), `git ls-files -o`
// and `git status -uall` listed the state dir: git's whole-tree reads skipped the coverage check
// `grep -r` gets. Against a real `workbench stdio`: a canary in the state dir must not appear in any
// output, the state dir's name must not be listed, and each call is refused with path.sensitive.
// The same calls on a workspace whose state dir lies elsewhere work and find the control marker.
// Red team G8: from a subdirectory holding a decoy `.git` (an empty directory, or a junk file), which
// git skips on its way up to the real repository, a `:/` pathspec printed the API token in halves.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectStdio } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const CANARY = 'WB-STATE-CANARY-9f3e1c77a2';
const CONTROL = 'WB-CONTROL-MARKER-51d0';
const ATTACKS: string[][] = [
  ['git', 'grep', '--untracked', '-o', '-E', '-e', '^.{14}', '-e', '.{12}$'],
  ['git', 'grep', '--untracked', CANARY.slice(0, 12)],
  ['git', 'ls-files', '-o'],
  ['git', 'status', '-uall', '--porcelain'],
  ['git', 'grep', '--no-index', CANARY.slice(0, 12)],
];

async function serve(dirs: TempDirs, state: string) {
  execFileSync('git', ['init', '-q', dirs.workspace]);
  writeFileSync(join(dirs.workspace, 'notes.txt'), `${CONTROL}\n`);
  writeFileSync(join(dirs.root, 'workbench.toml'), '[sandbox]\nbubblewrap = "off"\n');
  const s = await connectStdio({ workspace: dirs.workspace, state, profile: 'read-only', extraArgs: ['--config', join(dirs.root, 'workbench.toml')] });
  writeFileSync(join(state, 'canary.txt'), `${CANARY}\n`);
  const run = async (command: string[], cwd = dirs.workspace) => {
    const r = await s.client.callTool({ name: 'run_command', arguments: { command, cwd } });
    return { text: JSON.stringify(r), sc: r.structuredContent as Record<string, any> };
  };
  return { s, run };
}

describe('git whole-tree reads with the state dir inside the root (bubblewrap off)', () => {
  let dirs: TempDirs;
  let srv: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    dirs = tempDirs();
    const state = join(dirs.workspace, '.wbstate');
    mkdirSync(state, { mode: 0o700 });
    srv = await serve(dirs, state);
  });
  after(async () => {
    await srv?.s.close();
    dirs?.cleanup();
  });

  for (const cmd of ATTACKS) {
    test(`${cmd.join(' ')} is refused and shows nothing of the state dir`, async () => {
      const { text, sc } = await srv.run(cmd);
      assert.ok(!text.includes(CANARY.slice(0, 12)) && !text.includes(CANARY.slice(-12)), `canary leaked: ${text.slice(0, 400)}`);
      assert.ok(!text.includes('canary.txt'), `state dir listed: ${text.slice(0, 400)}`);
      assert.equal(sc.rule, 'path.sensitive', text.slice(0, 400));
    });
  }
});

/** The red team's exact call: two halves of every line of the state dir, from `sub` via `-C`, pathspec `:/.wbstate/`. */
const halves = (dir: string, pathspec: string): string[] =>
  ['git', '-C', dir, 'grep', '--untracked', '-h', '-o', '-E', '-e', '^.{22}', '-e', '.{21}$', '--', pathspec];

describe('git whole-tree reads from below a decoy .git, state dir inside the root (bubblewrap off)', () => {
  let dirs: TempDirs;
  let srv: Awaited<ReturnType<typeof serve>>;
  let token: string;
  before(async () => {
    dirs = tempDirs();
    const state = join(dirs.workspace, '.wbstate');
    mkdirSync(state, { mode: 0o700 });
    mkdirSync(join(dirs.workspace, 'sub', '.git'), { recursive: true });
    mkdirSync(join(dirs.workspace, 'junk'));
    writeFileSync(join(dirs.workspace, 'junk', '.git'), 'not a gitdir line\n');
    srv = await serve(dirs, state);
    // stdio serves no HTTP and writes no API token: a stand-in of the same shape takes its place.
    const tokenFile = join(state, 'api-token');
    if (!existsSync(tokenFile)) writeFileSync(tokenFile, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    token = readFileSync(tokenFile, 'utf8').trim();
  });
  after(async () => {
    await srv?.s.close();
    dirs?.cleanup();
  });

  const cases: Array<[string, () => [string[], string]]> = [
    ['the red team\'s call: git -C sub grep … -- :/.wbstate/', () => [halves(join(dirs.workspace, 'sub'), ':/.wbstate/'), dirs.workspace]],
    ['from a junk .git file: git -C junk grep … -- :(top).wbstate', () => [halves(join(dirs.workspace, 'junk'), ':(top).wbstate'), dirs.workspace]],
    ['cwd below the decoy: git grep … -- :/', () => [halves('.', ':/'), join(dirs.workspace, 'sub')]],
    ['cwd below the decoy: git status -uall', () => [['git', 'status', '-uall', '--porcelain'], join(dirs.workspace, 'sub')]],
    ['cwd below the decoy: git log -p -- :/.wbstate', () => [['git', 'log', '-p', '--', ':/.wbstate'], join(dirs.workspace, 'sub')]],
  ];
  for (const [name, make] of cases) {
    test(`${name} is refused and shows nothing of the state dir`, async () => {
      const [cmd, cwd] = make();
      const { text, sc } = await srv.run(cmd, cwd);
      for (const secret of [CANARY, token]) {
        assert.ok(!text.includes(secret.slice(0, 12)) && !text.includes(secret.slice(-12)), `secret leaked: ${text.slice(0, 400)}`);
      }
      assert.ok(!text.includes('canary.txt') && !text.includes('api-token'), `state dir listed: ${text.slice(0, 400)}`);
      assert.equal(sc.rule, 'path.sensitive', text.slice(0, 400));
    });
  }
});

describe('git whole-tree reads of a tree without the state dir keep working (bubblewrap off)', () => {
  let dirs: TempDirs;
  let srv: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    dirs = tempDirs();
    srv = await serve(dirs, dirs.state);
  });
  after(async () => {
    await srv?.s.close();
    dirs?.cleanup();
  });

  test('from below a decoy .git, git grep :/ and git status see the real repository', async () => {
    mkdirSync(join(dirs.workspace, 'sub', '.git'), { recursive: true });
    const sub = join(dirs.workspace, 'sub');
    assert.match((await srv.run(['git', 'grep', '--untracked', CONTROL, '--', ':/'], sub)).text, /notes\.txt/);
    assert.match((await srv.run(['git', 'status', '-uall', '--porcelain'], sub)).text, /notes\.txt/);
  });

  test('git grep --untracked, ls-files -o and status -uall see the workspace', async () => {
    assert.match((await srv.run(['git', 'grep', '--untracked', CONTROL])).text, /notes\.txt/);
    assert.match((await srv.run(['git', 'ls-files', '-o'])).text, /notes\.txt/);
    assert.match((await srv.run(['git', 'status', '-uall', '--porcelain'])).text, /notes\.txt/);
  });
});

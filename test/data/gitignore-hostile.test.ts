// Red team F3/F3b: the root .gitignore is content an attacker controls. A FIFO hung the server for
// good (blocking open), a symlink to /dev/zero got it OOM-killed, a symlink out of the roots leaked
// which names matched the outside file's patterns. Each case runs list_files and the built-in
// file_search in a child node process inside an OUTER memory/pids cgroup this test creates, so a
// regression kills the child, not the host; the child is killed if it overruns (a hang).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createOuterCgroup, removeOuterCgroup, runInOuterCgroup } from '../helpers/limits.js';

const DEPS_JS = fileURLToPath(new URL('../helpers/data-deps.js', import.meta.url));
const TOOLS_JS = fileURLToPath(new URL('../../src/control/tools/adapters-files.js', import.meta.url));

const CHILD = `
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const [depsJs, toolsJs, outerName, kind] = process.argv.slice(1);
const inside = (await import('node:fs')).readFileSync('/proc/self/cgroup', 'utf8').split('\\n').some((l) => /:memory:/.test(l) && l.includes(outerName));
if (!inside) { console.log(JSON.stringify({ refused: 'not inside the outer cgroup' })); process.exit(3); }
const { makeDataDeps, call } = await import(depsJs);
const { fileTools } = await import(toolsJs);
const ctx = makeDataDeps();
writeFileSync(join(ctx.ws, 'keep.txt'), 'NEEDLE\\n');
writeFileSync(join(ctx.ws, 'secret.txt'), 'NEEDLE\\n');
const gi = join(ctx.ws, '.gitignore');
if (kind === 'fifo') execFileSync('mkfifo', [gi]);
if (kind === 'zero') symlinkSync('/dev/zero', gi);
if (kind === 'outside') {
  const out = mkdtempSync(join(tmpdir(), 'wb-gi-out-'));
  writeFileSync(join(out, 'patterns'), 'secret.txt\\n');
  symlinkSync(join(out, 'patterns'), gi);
}
if (kind === 'huge') writeFileSync(gi, Buffer.alloc((1 << 20) + 10, 'secret.txt\\n'));
const tools = fileTools(ctx.deps, { searchEngine: 'builtin' });
const list = await call(tools, 'list_files', { path: ctx.ws });
const search = await call(tools, 'file_search', { path: ctx.ws, query: 'NEEDLE' });
console.log(JSON.stringify({ files: list.data.files.map((f) => f.path), notes: list.data.notes, searchNotes: search.data.notes, matches: search.data.matches.map((m) => m.path) }));
ctx.cleanup();
process.exit(0);
`;

async function hostile(t: TestContext, kind: string): Promise<Record<string, any> | undefined> {
  const outer = createOuterCgroup({ pidsMax: 100, memoryBytes: 512 * 1024 ** 2, cpuPercent: 100 });
  if (typeof outer === 'string') return void t.skip(`cannot create an outer cgroup: ${outer}`);
  t.after(() => removeOuterCgroup(outer));
  const r = await runInOuterCgroup(outer, CHILD, [DEPS_JS, TOOLS_JS, outer.name, kind], 60_000);
  assert.equal(r.overran, false, `the child hung on a ${kind} .gitignore: ${r.stderr}`);
  assert.equal(r.code, 0, `the child died on a ${kind} .gitignore (OOM?): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

const cases: Array<[string, RegExp]> = [
  ['fifo', /not a regular file/],
  ['zero', /symlink/],
  ['outside', /symlink/],
  ['huge', /larger than 1048576 bytes/],
];

for (const [kind, why] of cases) {
  test(`a ${kind} .gitignore is answered promptly, not applied, and the result says why`, async (t) => {
    const out = await hostile(t, kind);
    if (!out) return;
    assert.ok(out.files.includes('keep.txt') && out.files.includes('secret.txt'), JSON.stringify(out));
    assert.equal(out.notes?.length, 1, JSON.stringify(out));
    assert.match(out.notes[0], why);
    assert.match(out.searchNotes?.[0] ?? '', why);
    assert.deepEqual(out.matches.sort(), ['keep.txt', 'secret.txt']);
  });
}

// Red team: argument policies that parse options differently from the real program.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

const TOKEN = 'wb-api-token-value-123456';
const reversed = [...TOKEN].reverse().join('');

// Without bubblewrap (macOS, no user namespaces, sandbox.bubblewrap = off) the policy is the only layer.
describe('redteam: read-only policy bypasses without bubblewrap', () => {
  const t = testApp('read-only', { sandbox: { bubblewrap: 'off' } });
  before(() => writeFileSync(join(t.state, 'api-token'), `${TOKEN}\n`, { mode: 0o600 }));
  after(() => t.close());

  test('sort --files0-from=- cannot read a file the policy never saw', async () => {
    const r = await t.call('run_command', { command: 'sort --files0-from=- | rev', stdin: `${join(t.state, 'api-token')}\0`, cwd: t.ws });
    assert.ok(!String(r.s.stdout ?? '').includes(reversed), `sort --files0-from=- read the state dir's api-token (names in the list are unchecked): ${r.s.stdout}`);
  });

  test('ip -fa link -batch FILE is not a show command', async () => {
    const r = await t.call('run_command', { command: `ip -fa link -batch ${join(t.state, 'api-token')}`, cwd: t.ws });
    const out = `${r.s.stdout ?? ''}${r.s.stderr ?? ''}`;
    assert.ok(r.s.exit_code === undefined || r.s.exit_code === null, `ip.ts misses 3-letter abbreviations (-fa = -family) so '-batch' after the object ran: ${out.slice(0, 200)}`);
  });
});

describe('redteam: read-only argument policies misparse (any sandbox)', () => {
  const t = testApp('read-only');
  before(() => {
    mkdirSync(join(t.ws, 'sub'));
    writeFileSync(join(t.ws, 'sub', 'f.txt'), 'needle\n');
  });
  after(() => t.close());

  test('systemctl --preset-mode VALUE does not hide the real verb', async () => {
    const r = await t.call('run_command', { command: ['systemctl', '--preset-mode', 'status', 'frobnicate'], cwd: t.ws });
    assert.ok(!/preset mode: status|Unknown command verb/i.test(String(r.s.stderr ?? '')), `policy checked 'status' as the verb but systemctl took it as --preset-mode's value (the real verb was 'frobnicate'; could be 'stop'/'poweroff'): ${r.s.stderr}`);
  });

  test('grep -d rec (abbreviated --directories=recurse) is treated as a recursive read', async () => {
    // Recursing through the workspace is legitimate; what must hold is that the recursion goes
    // through coversSecrets, so a directory holding secrets (/etc has /etc/shadow) is refused.
    const ok = await t.call('run_command', { command: ['grep', '-d', 'rec', 'needle', '.'], cwd: t.ws });
    assert.ok(String(ok.s.stdout ?? '').includes('sub/f.txt'), `grep -d rec over the workspace should run: ${JSON.stringify(ok.s)}`);
    const r = await t.call('run_command', { command: ['grep', '-d', 'rec', 'root', '/etc'], cwd: t.ws });
    assert.ok(r.s.exit_code === undefined || r.s.exit_code === null, `grep -d rec /etc ran although /etc holds secrets (coversSecrets skipped): ${String(r.s.stdout ?? '').slice(0, 200)}`);
  });
});

// Finding 7 (issue 10): a read-only run_command of a 2,000-stage `git | git | …` pipeline froze the
// server for 11 s (synchronous work per stage before any deadline). Against a real `workbench serve`:
// two witness calls (`sleep`) are in flight; an attacker then sends the worst input the argument
// limits admit — a 256 KiB `git|git|…` string, 65,536 stages — many times at once, plus a cheap
// `job_list`. Ordering, not timing: every attack call is refused with `pipeline.too_many_stages`
// and `job_list` answers, all before either witness finishes. A server whose event loop the attack
// holds answers the witnesses first (or the attack calls never within the witnesses' lifetime).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_TOTAL_BYTES } from '../../src/policy/argv-limits.js';
import { pidsWithMarker } from '../helpers/proc-scan.js';
import { startHttpServer, type HttpServer } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import { parseRpc } from '../control/http-client.js';

const ATTACKERS = 24;
/** Unusual enough to find the witnesses' processes by their command line. */
const WITNESS_SLEEP_S = '25.731';

describe('a flood of maximal pipelines does not hold the server', () => {
  let dirs: TempDirs;
  let server: HttpServer;
  before(async () => {
    dirs = tempDirs();
    // Enough main-lane slots that no attack call is refused `busy` instead of being judged.
    server = await startHttpServer({ workspace: dirs.workspace, state: dirs.state, configToml: '[control]\nmax_inflight = 64\nmax_queue = 64\n' });
  });
  after(async () => {
    await server?.stop();
    dirs?.cleanup();
  });

  const call = async (name: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    const res = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      signal,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    return parseRpc(await res.text())?.result?.structuredContent as Record<string, any>;
  };

  test(`${ATTACKERS} concurrent ${MAX_TOTAL_BYTES}-byte pipelines are refused and job_list answers, all while the witnesses still run`, async () => {
    const worst = `${'git|'.repeat(MAX_TOTAL_BYTES / 4 - 1)}git`;
    assert.equal(worst.length, MAX_TOTAL_BYTES - 1, 'the longest string the limit admits');
    const order: string[] = [];
    const stop = new AbortController();
    const witnesses = [0, 1].map((i) =>
      call('run_command', { command: `sleep ${WITNESS_SLEEP_S}`, timeout_ms: 30_000 }, stop.signal).then(
        () => order.push(`witness${i}`),
        () => order.push(`witness${i} aborted`),
      ),
    );
    try {
      await waitFor(() => pidsWithMarker(`sleep\0${WITNESS_SLEEP_S}\0`).length >= 2, 15_000, 'both witnesses running');
      const attacks = Array.from({ length: ATTACKERS }, (_, i) =>
        call('run_command', { command: worst }).then((r) => {
          order.push(`attack${i}`);
          return r;
        }),
      );
      const cheap = call('job_list', {}).then((r) => {
        order.push('job_list');
        return r;
      });
      const [answers, list] = await Promise.all([Promise.all(attacks), cheap]);
      for (const a of answers) {
        assert.equal(a.success, false);
        assert.equal(a.rule, 'pipeline.too_many_stages', JSON.stringify(a).slice(0, 300));
        assert.match(a.error, /65536 stages, over the limit of 16/);
      }
      assert.equal(list.success, true, JSON.stringify(list));
      assert.ok(!order.some((o) => o.startsWith('witness')), `a witness finished before the attack was answered: ${order.join(', ')}`);
      assert.equal(order.length, ATTACKERS + 1);
    } finally {
      stop.abort(); // ends the witnesses (the server kills their process trees)
      await Promise.all(witnesses);
    }
  });
});

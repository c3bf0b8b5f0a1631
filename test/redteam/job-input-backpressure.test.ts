// Finding 8 (issue 10): job_input had no backpressure — 150 × 1 MB into a job that does not read
// grew its supervisor (outside the command's cgroup) by ~150 MB. Now the supervisor relays only as
// fast as the command reads; job_input waits briefly, then answers `busy` with `bytes_written`.
// Real supervisors and sandboxed commands, driven through invokeTool; memory read from /proc.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { jobPaths } from '../../src/execution/jobs/paths.js';
import { testApp, type Structured } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

const MiB = 1024 * 1024;
/** 1 MiB of text in 3-byte characters (plus one byte), so a cut inside a character would show. */
const MEGABYTE = `${'€'.repeat((MiB - 1) / 3)}!`;

describe('job_input backpressure', () => {
  // Room for a batch of 10 concurrent calls in the main lane (the default is 4).
  const app = testApp('workspace-write', { control: { max_inflight: 16 } });
  after(() => app.close());

  const startJob = async (command: string[]) => {
    const r = await app.call('job_start', { command, stdin_open: true });
    assert.equal(r.isError, false, r.text);
    const id = String(r.s.job_id);
    await waitFor(() => readSupervisor(app.state, id), 15_000, 'the supervisor to run the command');
    return id;
  };
  const input = (id: string, data: string, close = false) => app.call('job_input', { job_id: id, data, close });

  test('150 × 1 MB into a job that never reads: busy with bytes_written, supervisor growth under 64 MiB', async () => {
    assert.equal(Buffer.byteLength(MEGABYTE), MiB);
    const id = await startJob(['sleep', '600']);
    const supPid = readSupervisor(app.state, id)!.supPid;
    const before = vmRssKb(supPid);
    let peak = before;
    let accepted = 0;
    let busy = 0;
    // Batches of 10 concurrent calls: inside a batch, the calls queued behind a busy one are busy at once.
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => input(id, MEGABYTE)));
      for (const a of answers) {
        assert.equal(a.isError, true, `the command reads nothing, yet a whole MiB was accepted: ${a.text}`);
        assert.equal(a.s.error_class, 'busy', a.text);
        assert.equal(a.s.bytes_total, MiB);
        assert.ok(Number.isInteger(a.s.bytes_written) && a.s.bytes_written >= 0 && a.s.bytes_written < MiB, a.text);
        assert.equal(a.s.bytes_written % 3, 0, 'bytes_written ends on a character boundary');
        assert.match(a.s.error, /not reading its input/);
        accepted += a.s.bytes_written;
        busy++;
      }
      peak = Math.max(peak, vmRssKb(supPid));
    }
    assert.equal(busy, 150);
    // What was accepted is what the pipes hold (FIFO, the command's stdin pipe, one relay buffer).
    assert.ok(accepted > 0 && accepted < 2 * MiB, `accepted ${accepted} bytes in all`);
    const growthMiB = (peak - before) / 1024;
    assert.ok(growthMiB < 64, `the supervisor grew by ${growthMiB.toFixed(1)} MiB (from ${before} kB to ${peak} kB)`);
    const cancelled = await app.call('job_cancel', { job_id: id, grace_ms: 0 });
    assert.equal(cancelled.s.status, 'cancelled');
  });

  test('a job that reads receives exactly the bytes reported written, in order, resending after busy', async () => {
    // The command reads nothing until the test creates `go`, then copies stdin to stdout.
    const go = join(app.ws, 'go');
    const id = await startJob(['sh', '-c', `while [ ! -e ${go} ]; do sleep 0.05; done; exec cat`]);
    const pieces = Array.from({ length: 4 }, (_, i) => `<piece ${i}>${String.fromCharCode(0x41 + i).repeat(MiB - 40)}é</piece ${i}>\n`);
    let expected = '';
    let sawPartial = false;
    for (const piece of pieces) {
      let rest = Buffer.from(piece);
      while (rest.length > 0) {
        const r = await input(id, rest.toString('utf8'));
        const written = r.isError ? (r.s as Structured).bytes_written : rest.length;
        if (r.isError) {
          assert.equal(r.s.error_class, 'busy', r.text);
          sawPartial ||= written > 0;
          writeFileSync(go, ''); // from now on the command reads
        }
        expected += rest.subarray(0, written).toString('utf8');
        rest = rest.subarray(written);
      }
    }
    assert.ok(sawPartial, 'the first MiB was refused in part while the command did not read');
    const closed = await input(id, '', true);
    assert.equal(closed.s.closed, true, closed.text);
    const ended = await waitFor(async () => {
      const s = (await app.call('job_wait', { job_id: id, timeout_ms: 5000 })).s;
      return s.status !== 'running' ? s : undefined;
    }, 60_000, 'cat to end at EOF');
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended));
    const out = readFileSync(jobPaths(app.state, id).log('stdout'), 'utf8');
    assert.equal(out.length, expected.length);
    assert.ok(out === expected, 'the command received exactly what was reported written, in order');
    assert.equal(out, pieces.join(''));
  });
});

function readSupervisor(state: string, id: string): { supPid: number } | undefined {
  try {
    return JSON.parse(readFileSync(jobPaths(state, id).supervisor, 'utf8')) as { supPid: number };
  } catch {
    return undefined;
  }
}

function vmRssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, `no VmRSS for ${pid}`);
  return Number(m[1]);
}

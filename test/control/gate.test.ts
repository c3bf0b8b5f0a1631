// Gate queue semantics: N run, M wait (FIFO, each for a bounded time), the rest are busy at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Gate } from '../../src/control/gate.js';
import { AppError } from '../../src/shared/errors.js';

const gate = (maxInflight: number, maxQueue: number, queueWaitMs = 5000) => new Gate({ name: 'tool', maxInflight, maxQueue, queueWaitMs });

async function isBusy(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return false;
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.errorClass, 'busy');
    return true;
  }
}

describe('Gate', () => {
  test('a call cancelled while it waits leaves the queue and never runs', async () => {
    const g = gate(1, 4);
    const first = await g.acquire();
    const ac = new AbortController();
    const waiting = g.acquire(ac.signal);
    assert.equal(g.queued, 1);
    ac.abort();
    await assert.rejects(waiting, (err: unknown) => err instanceof AppError && err.errorClass === 'cancelled');
    assert.equal(g.queued, 0);
    first();
    assert.equal(g.inflight, 0, 'the cancelled waiter was not granted the freed slot');
  });

  test('N acquire at once; the N+1th waits', async () => {
    const g = gate(2, 4);
    const r1 = await g.acquire();
    await g.acquire();
    assert.equal(g.inflight, 2);
    let granted = false;
    const third = g.acquire().then((r) => ((granted = true), r));
    await new Promise((r) => setImmediate(r));
    assert.equal(granted, false);
    assert.equal(g.queued, 1);
    r1();
    (await third)();
    assert.equal(granted, true);
    assert.equal(g.inflight, 1);
  });

  test('beyond M waiting, busy at once (no waiting)', async () => {
    const g = gate(1, 2, 100);
    await g.acquire();
    const waiting = [g.acquire(), g.acquire()];
    const t0 = performance.now();
    assert.equal(await isBusy(g.acquire()), true);
    assert.ok(performance.now() - t0 < 1000, 'refused without spending the queue wait');
    assert.equal(g.queued, 2);
    waiting.forEach((p) => p.catch(() => undefined));
  });

  test('a waiter that is not granted within queueWaitMs gets busy and leaves the queue', async () => {
    const g = gate(1, 4, 50);
    await g.acquire();
    assert.equal(await isBusy(g.acquire()), true);
    assert.equal(g.queued, 0);
    assert.equal(g.inflight, 1);
  });

  test('queueWaitMs 0 means no queue', async () => {
    const g = gate(1, 10, 0);
    await g.acquire();
    assert.equal(await isBusy(g.acquire()), true);
  });

  test('grants are FIFO', async () => {
    const g = gate(1, 10);
    let release = await g.acquire();
    const order: number[] = [];
    const waiters = [0, 1, 2, 3, 4].map((i) => g.acquire().then((r) => (order.push(i), r)));
    for (const w of waiters) {
      release();
      release = await w;
    }
    release();
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(g.inflight, 0);
  });

  test('release is idempotent: a double release never frees two slots', async () => {
    const g = gate(1, 0);
    const r = await g.acquire();
    r();
    r();
    assert.equal(g.inflight, 0);
    await g.acquire();
    assert.equal(await isBusy(g.acquire()), true);
  });

  test('the busy message says what to do', async () => {
    const g = gate(1, 0);
    await g.acquire();
    await assert.rejects(g.acquire(), (err: AppError) => err.errorClass === 'busy' && /retry/.test(err.hint ?? ''));
  });
});

// The red team's growth case (issue 17 finding 6): one task of 100 read_file steps with save_as grew
// the state dir by 425 MB (every result copied into one context JSON rewritten on every step). Now
// each result is stored once and the context stays within scheduler.max_context_bytes: the database
// (workbench.db + its WAL) grows by about the results' own size, not a multiple of it.
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { taskApp, type TaskApp } from '../helpers/tasks-app.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';

const FILE_BYTES = 256 * 1024;
const STEPS = 100;
const MAX_CONTEXT = 64 * 1024;

function dbBytes(state: string): number {
  const size = (f: string) => {
    try {
      return statSync(join(state, f)).size;
    } catch {
      return 0;
    }
  };
  return size('workbench.db') + size('workbench.db-wal');
}

describe('task totals: database growth of a 100 × read_file task (read-only)', () => {
  let dirs: TempDirs;
  let t: TaskApp;
  before(() => {
    dirs = tempDirs('wb-tasks-growth-');
    // Printable text without JSON escapes, so the stored JSON is the file's size plus a few fields.
    const line = `${'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(8).slice(0, 255)}\n`;
    writeFileSync(join(dirs.workspace, 'big.txt'), line.repeat(FILE_BYTES / 256));
    t = taskApp(dirs, 'read-only', { scheduler: { lease_ms: 2000, max_context_bytes: MAX_CONTEXT } });
  });
  after(async () => {
    await t.app.deps.close();
    dirs.cleanup();
  });

  it(`stores each result once, keeps the context within ${MAX_CONTEXT} bytes, and a later step still reads the first result in full`, async () => {
    await t.call('task_list', {}); // opens the database, so the baseline includes its schema
    const before = dbBytes(dirs.state);
    const reads = Array.from({ length: STEPS }, (_, i) => ({ action: 'read_file', parameters: { path: 'big.txt', max_bytes: FILE_BYTES }, save_as: `f${i + 1}` }));
    const res = await t.call('task_create', {
      steps: [...reads, { action: 'run_command', parameters: { command: ['wc', '-c'], stdin: '{{context.f1.content}}' }, save_as: 'n' }],
    });
    assert.equal(res.isError, false, JSON.stringify(res.structuredContent));
    const id = res.structuredContent.task_id as string;
    const done = await t.waitTask(id, ['completed', 'paused', 'failed'], 120_000);
    assert.equal(done.status, 'completed', done.status_reason);
    const db = t.app.deps.store().db;
    const n = db.prepare('SELECT result FROM task_steps WHERE id = ?').get(`${id}.${STEPS + 1}`) as { result: string };
    assert.equal(JSON.parse(n.result).stdout.trim(), String(FILE_BYTES), 'the reference resolved to the whole first read');

    db.pragma('wal_checkpoint(PASSIVE)');
    const growth = dbBytes(dirs.state) - before;
    const results = STEPS * FILE_BYTES;
    assert.ok(growth < results * 1.25 + 4 * 1024 * 1024, `database grew ${growth} bytes for ${results} bytes of results`);
    const stored = db.prepare('SELECT count(*) AS n, sum(bytes) AS b FROM task_step_outputs WHERE step_id LIKE ?').get(`${id}.%`) as { n: number; b: number };
    assert.equal(stored.n, STEPS, 'each large result has exactly one stored row');
    const ctx = db.prepare('SELECT count(*) AS n, sum(bytes) AS b FROM task_context_entries WHERE task_id = ?').get(id) as { n: number; b: number };
    assert.equal(ctx.n, STEPS + 1);
    // Within the bound, plus a reference of a few hundred bytes (no preview) per key saved after it was reached.
    assert.ok(ctx.b <= MAX_CONTEXT + STEPS * 512, `context entries hold ${ctx.b} bytes`);
    const rows = db.prepare('SELECT sum(length(result)) AS b FROM task_steps WHERE task_id = ?').get(id) as { b: number };
    assert.ok(rows.b < (STEPS + 1) * 4096, `step rows hold previews only (${rows.b} bytes)`);
    assert.equal(Object.keys(done.context).length, STEPS + 1, 'task_status shows every key');
    assert.equal(done.context.f1.truncated_in_context, true);
    assert.equal(done.context.f1.$ref, `${id}.1`);
  });
});

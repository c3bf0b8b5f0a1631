// Micro-benchmark: median µs per decide() of a typical read-only pipeline, against tokenize() of the
// same string alone (the baseline: the cost of parsing without any policy or disk facts).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decide } from '../src/policy/decide.js';
import { tokenize } from '../src/policy/tokenize.js';
import type { PolicyContext } from '../src/policy/types.js';
import { realPolicyFs } from '../src/execution/real-policy-fs.js';

const COMMAND = 'grep -rn ERROR app.log | sort | uniq -c | sort -rn | head -20';
const CALLS = 20_000;
const BATCH = 1_000;

const realFs = realPolicyFs;

function medianMicros(fn: () => void): number {
  for (let i = 0; i < BATCH; i++) fn();
  const perCall: number[] = [];
  for (let b = 0; b < CALLS / BATCH; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) fn();
    perCall.push(Number(process.hrtime.bigint() - t0) / 1000 / BATCH);
  }
  perCall.sort((x, y) => x - y);
  return perCall[Math.floor(perCall.length / 2)]!;
}

/** Median µs per call: decide() on a 5-stage pipeline vs tokenize() of the same string. */
export async function benchPolicy(): Promise<{ name: string; ours: number; baseline: number; unit: string }[]> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-policy-')));
  try {
    writeFileSync(join(ws, 'app.log'), 'ERROR x\n');
    const ctx: PolicyContext = {
      profile: 'read-only', workspaceRoots: [ws], readRoots: [ws], writeRoots: [], stateDir: join(ws, '.state'),
      homeDir: '/home/nobody', networkAllowed: false, systemPath: ['/usr/local/bin', '/usr/bin', '/bin'], fs: realFs,
    };
    const req = { command: COMMAND, cwd: ws };
    const check = decide(req, ctx);
    if (!check.allow) throw new Error(`benchmark command refused: ${check.rule}`);
    const ours = medianMicros(() => decide(req, ctx));
    const baseline = medianMicros(() => tokenize(COMMAND));
    return [{ name: 'policy decide() 5-stage pipeline (baseline: tokenize only)', ours, baseline, unit: 'µs/call' }];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

// The attack and legitimate-use tables run through decide() with a real workspace and real PATH.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { decide } from '../../src/policy/decide.js';
import { ATTACKS } from './attack-cases.js';
import { FAKE_HOME, makeFixture } from './fixture.js';
import { LEGIT } from './legit-cases.js';
import { expand, ruleMatches } from './table.js';

const fx = makeFixture();
after(() => fx.cleanup());

describe('policy attack table: every row is refused with its rule', () => {
  assert.ok(ATTACKS.length >= 260, `attack table has ${ATTACKS.length} rows`);
  for (const [p, command, expect, opts] of ATTACKS) {
    for (const c of expand(p, command, opts ?? {}, fx, FAKE_HOME)) {
      it(c.name, () => {
        const d = decide(c.req, c.ctx, { mode: c.mode });
        assert.equal(d.allow, false, `allowed, expected ${JSON.stringify(expect)}`);
        if (d.allow) return;
        assert.ok(ruleMatches(d.rule, expect), `rule ${d.rule} (${d.message}), expected ${JSON.stringify(expect)}`);
        assert.ok(d.message.length > 10, 'a denial says what to do');
      });
    }
  }
});

describe('policy legitimate-use table: every row is allowed', () => {
  assert.ok(LEGIT.length >= 160, `legit table has ${LEGIT.length} rows`);
  for (const [p, command, opts] of LEGIT) {
    for (const c of expand(p, command, opts ?? {}, fx, FAKE_HOME)) {
      it(c.name, () => {
        const d = decide(c.req, c.ctx, { mode: c.mode });
        assert.equal(d.allow, true, d.allow ? '' : `refused: ${d.rule}: ${d.message}`);
      });
    }
  }
});

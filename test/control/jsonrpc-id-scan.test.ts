// The cheap id finder used to answer a stdio message too large to parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanJsonRpcId } from '../../src/control/jsonrpc-id-scan.js';

test('finds the top-level id at the start or the end, and nothing it cannot be sure of', () => {
  const cases: Array<[string, string, string | number | null]> = [
    ['{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"', '', 7],
    ['  {"id":"abc","method":"x"', '', 'abc'],
    ['{"jsonrpc":"2.0","params":{"id":99,"pad":"', 'xxx"}},"id":5}', 5],
    ['{"jsonrpc":"2.0","params":{"id":99,"pad":"', 'xxx"}}}', null],
    ['{"jsonrpc":"2.0","method":"id","params":{"x":"', 'xx"}}', null],
    ['{"jsonrpc":"2.0","id":{"x":1},"params":"', '"}', null],
    ['{"pad":"a\\"id\\":3,"', '', null],
    ['garbage', 'garbage', null],
    ['{"id":1.5,"p":"', '', null],
  ];
  for (const [head, tail, want] of cases) assert.equal(scanJsonRpcId(head, tail), want, `${head} … ${tail}`);
});

// Runs every compiled *.test.js under dist/test with Node's test runner (Node 20 has no --test globs).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
  );
}

const filter = process.argv.slice(2);
const files = find('dist/test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x))).sort();
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);

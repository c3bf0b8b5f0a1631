// `workbench stdio` answers initialize having loaded only what serving needs: no commander, pino,
// SQLite, policy, execution or data-plane code (those load on first use). Structure, not timing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { MAIN } from '../helpers/server-process.js';
import { tempDirs } from '../helpers/workspace.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

const HEAVY = [
  'node_modules/commander/',
  'node_modules/pino/',
  'node_modules/better-sqlite3/',
  'node_modules/chrono-node/',
  'node_modules/luxon/',
  'node_modules/prom-client/',
  'node_modules/smol-toml/',
  '/src/policy/decide.js',
  '/src/execution/run.js',
  '/src/execution/jobs/service.js',
  '/src/execution/scheduler/service.js',
  '/src/control/tools/run-command-exec.js',
  '/src/control/http/',
  '/src/data/',
];

/** Preload: records ESM loads (hooks thread) and, at the first stdout write, the CommonJS modules loaded so far. */
function writeProbe(dir: string): { preload: string; esmLog: string; cjsLog: string } {
  const esmLog = join(dir, 'esm.txt');
  const cjsLog = join(dir, 'cjs.json');
  const hooks = join(dir, 'hooks.mjs');
  const preload = join(dir, 'probe.cjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(esmLog)}, url + '\\n');\n  return next(url, context);\n}\n`);
  writeFileSync(
    preload,
    [
      `const { writeFileSync } = require('node:fs');`,
      `require('node:module').register(${JSON.stringify(pathToFileURL(hooks).href)});`,
      `const write = process.stdout.write.bind(process.stdout);`,
      `let done = false;`,
      `process.stdout.write = (chunk, ...rest) => {`,
      `  if (!done) { done = true; writeFileSync(${JSON.stringify(cjsLog)}, JSON.stringify(Object.keys(require.cache))); }`,
      `  return write(chunk, ...rest);`,
      `};`,
    ].join('\n'),
  );
  return { preload, esmLog, cjsLog };
}

describe('cold start', () => {
  const dirs = tempDirs();
  after(() => dirs.cleanup());

  test('initialize is answered before any heavy module is loaded', async () => {
    const probe = writeProbe(dirs.root);
    const child = spawn(process.execPath, ['--require', probe.preload, MAIN, 'stdio', '--root', dirs.workspace], {
      env: { ...process.env, WORKBENCH_HOME: dirs.state },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answer = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no initialize answer within 15 s')), 15_000);
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out);
        }
      });
      child.stdin!.write(`${JSON.stringify(INIT)}\n`);
    });
    const loaded = [...readFileSync(probe.esmLog, 'utf8').split('\n'), ...(JSON.parse(readFileSync(probe.cjsLog, 'utf8')) as string[])];
    child.kill('SIGKILL');
    assert.match(answer, /"serverInfo"/);
    assert.ok(loaded.some((u) => u.endsWith('/src/control/server.js')), 'the probe saw the server load');
    for (const heavy of HEAVY) assert.deepEqual(loaded.filter((u) => u.includes(heavy)), [], `${heavy} loaded before initialize was answered`);
  });
});

// Only the descriptors we mean (SPEC §4.1a): the test opens a descriptor to a directory outside the
// roots BEFORE it starts the server (an extra stdio entry, fd 40: Node itself only marks low inherited
// numbers close-on-exec), then a workspace-write run_command and a job try to read and write through
// /proc/self/fd/40 and through fd 40 itself (openat). Nothing may be read, no marker may appear.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, MAIN } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';
import { tempDirs } from '../helpers/workspace.js';

const FD = 40;
const SECRET = 'outside-secret-7c1d93e0';

const ATTACK = `
ls /proc/self/fd/ | tr '\\n' ' '; echo
cat /proc/self/fd/${FD}/secret.txt
echo pwned > /proc/self/fd/${FD}/marker-procfd
python3 -c 'import os; fd = os.open("marker-dirfd", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=${FD}); os.write(fd, b"x")'
python3 -c 'import os; print(os.read(os.open("secret.txt", os.O_RDONLY, dir_fd=${FD}), 100))'
echo attack-ran
`;

describe('descriptors the server inherited never reach commands or jobs', () => {
  const dirs = tempDirs();
  const outside = join(dirs.root, 'outside');
  let proc: ChildProcess;
  let client: Client;
  let stderr = '';

  before(async () => {
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(dirs.workspace, 'attack.sh'), ATTACK);
    const dirFd = openSync(outside, 'r');
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    while (stdio.length < FD) stdio.push('ignore');
    stdio.push(dirFd);
    proc = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--root', dirs.workspace, '--profile', 'workspace-write'], {
      env: { ...process.env, WORKBENCH_HOME: dirs.state, XDG_CONFIG_HOME: join(dirs.root, 'no-config'), LOG_LEVEL: 'warn' },
      cwd: dirs.workspace,
      stdio,
    });
    closeSync(dirFd);
    proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], 15_000, 'server start');
    client = await connectHttp(url, readFileSync(join(dirs.state, 'api-token'), 'utf8').trim());
  });
  after(async () => {
    await client?.close();
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    dirs.cleanup();
  });

  const noEffect = (text: string) => {
    assert.match(text, /attack-ran/, 'the script itself ran');
    assert.doesNotMatch(text, new RegExp(SECRET), 'the outside secret must not be read');
    assert.deepEqual(readdirSync(outside).sort(), ['secret.txt'], 'no marker may appear outside the roots');
    assert.equal(existsSync(join(outside, 'marker-procfd')) || existsSync(join(outside, 'marker-dirfd')), false);
  };

  test('run_command (workspace-write) cannot use the inherited descriptor', async () => {
    const r = await client.callTool({ name: 'run_command', arguments: { command: ['sh', 'attack.sh'], cwd: dirs.workspace } });
    const s = r.structuredContent as Record<string, any>;
    const text = `${s.stdout}\n${s.stderr}`;
    assert.doesNotMatch(s.stdout.split('\n')[0], new RegExp(`\\b${FD}\\b`), `fd ${FD} is not open in the command: ${s.stdout.split('\n')[0]}`);
    noEffect(text);
  });

  test('a job cannot use the inherited descriptor', async () => {
    const started = await client.callTool({ name: 'job_start', arguments: { command: ['sh', 'attack.sh'], cwd: dirs.workspace } });
    const id = (started.structuredContent as Record<string, any>).job_id as string;
    assert.ok(id, JSON.stringify(started.structuredContent));
    const done = await client.callTool({ name: 'job_wait', arguments: { job_id: id } });
    assert.notEqual((done.structuredContent as Record<string, any>).status, 'running');
    const out = await client.callTool({ name: 'job_output', arguments: { job_id: id, stream: 'combined', max_bytes: 65536 } });
    noEffect((out.structuredContent as Record<string, any>).data as string);
  });
});

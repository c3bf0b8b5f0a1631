// Host adapters: system_info, process_search, env_vars, network_check, package_list, service_status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { systemTools } from '../../src/control/tools/adapters-system.js';
import { whichSystem } from '../../src/sandbox/capabilities.js';
import { call, callError, makeDataDeps } from '../helpers/data-deps.js';

const ctx = makeDataDeps();
const tools = systemTools(ctx.deps);

test('system_info reports the host and its sandbox layers', async () => {
  const r = (await call(tools, 'system_info', {})).data;
  assert.ok(r.cpu_count >= 1);
  assert.ok(r.total_memory_bytes > r.free_memory_bytes && r.free_memory_bytes > 0);
  assert.equal(r.load_avg.length, 3);
  assert.ok(r.disks.some((d: { mount: string }) => d.mount === '/'), JSON.stringify(r.disks));
  for (const d of r.disks) assert.ok(d.size_bytes >= d.used_bytes && d.avail_bytes >= 0);
  assert.ok(r.sandbox.layers.includes('process-group'));
});

test('process_search finds a child by name and pid with its args; CPU% reflects a busy loop', async () => {
  const child = spawn(process.execPath, ['-e', 'const t=Date.now()+20000; while(Date.now()<t){}', 'wb-marker-arg'], { stdio: 'ignore' });
  try {
    const r = (await call(tools, 'process_search', { name: 'wb-marker-arg' })).data;
    assert.equal(r.processes.length, 1);
    const p = r.processes[0];
    assert.equal(p.pid, child.pid);
    assert.equal(p.ppid, process.pid);
    assert.ok(p.args.includes('wb-marker-arg'));
    assert.ok(p.cpu_percent > 30, `cpu ${p.cpu_percent}`);
    assert.ok(p.rss_bytes > 1_000_000);
    const byPid = (await call(tools, 'process_search', { pid: child.pid })).data;
    assert.equal(byPid.processes[0].comm, p.comm);
    const mem = (await call(tools, 'process_search', { sort_by: 'mem', limit: 3 })).data;
    assert.equal(mem.processes.length, 3);
    assert.ok(mem.processes[0].rss_bytes >= mem.processes[2].rss_bytes);
    assert.equal(mem.truncated, mem.total > 3);
  } finally {
    child.kill('SIGKILL');
  }
});

test('env_vars masks secret-looking variables and keeps ordinary ones', async () => {
  process.env.WB_TEST_API_TOKEN = 'tok-123';
  process.env.WB_TEST_PLAIN = 'visible';
  process.env.WB_TEST_HOME = '/srv/wb-test/state';
  process.env.WB_TEST_CREDENTIALS = `${ctx.ws}/key.json`;
  try {
    const r = (await call(tools, 'env_vars', { filter: 'wb_test' })).data;
    assert.deepEqual(r.variables, [
      { name: 'WB_TEST_API_TOKEN', value: '****', masked: true },
      { name: 'WB_TEST_CREDENTIALS', value: `${ctx.ws}/key.json`, masked: false },
      { name: 'WB_TEST_HOME', value: '/srv/wb-test/state', masked: false },
      { name: 'WB_TEST_PLAIN', value: 'visible', masked: false },
    ]);
  } finally {
    for (const n of ['WB_TEST_API_TOKEN', 'WB_TEST_PLAIN', 'WB_TEST_HOME', 'WB_TEST_CREDENTIALS']) delete process.env[n];
  }
});

test('network_check: loopback listener connects, closed port fails, remote hosts are refused', async () => {
  const server = createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const ok = (await call(tools, 'network_check', { host: '127.0.0.1', port })).data;
    assert.equal(ok.connected, true);
    assert.deepEqual(ok.addresses, ['127.0.0.1']);
    assert.ok(ok.connect_ms >= 0);
    const name = (await call(tools, 'network_check', { host: 'localhost' })).data;
    assert.ok(name.addresses.length > 0);
  } finally {
    await new Promise((r) => server.close(r));
  }
  const closed = (await call(tools, 'network_check', { host: '127.0.0.1', port })).data;
  assert.equal(closed.connected, false);
  assert.equal(closed.error, 'ECONNREFUSED');
  for (const host of ['example.com', '10.0.0.1', '8.8.8.8', '[2001:db8::1]']) {
    const e = await callError(tools, 'network_check', { host, port: 80 });
    assert.equal(e.errorClass, 'policy_denied', host);
    assert.equal(e.rule, 'net.not_allowed');
  }
});

test('package_list: dpkg where installed, pagination, unknown manager unavailable', async (t) => {
  if (!whichSystem('dpkg-query')) return t.skip('dpkg-query is not installed');
  const first = (await call(tools, 'package_list', { manager: 'apt', limit: 5 })).data;
  assert.equal(first.manager, 'dpkg');
  assert.equal(first.packages.length, 5);
  assert.ok(first.total > 5 && first.truncated);
  const second = (await call(tools, 'package_list', { manager: 'dpkg', limit: 5, cursor: first.next_cursor })).data;
  assert.ok(second.packages[0].name > first.packages[4].name);
  const f = (await call(tools, 'package_list', { manager: 'dpkg', filter: 'coreutils' })).data;
  assert.ok(f.packages.some((p: { name: string; version: string }) => p.name.startsWith('coreutils') && p.version.length > 0));
  if (!whichSystem('brew')) assert.equal((await callError(tools, 'package_list', { manager: 'brew' })).errorClass, 'unavailable');
});

test('package_list: pip and npm parse their JSON', async (t) => {
  if (whichSystem('python3')) {
    const pip = (await call(tools, 'package_list', { manager: 'pip', filter: 'pip' })).data;
    assert.ok(pip.packages.some((p: { name: string }) => p.name === 'pip'), JSON.stringify(pip));
  }
  if (whichSystem('npm')) {
    const npm = (await call(tools, 'package_list', { manager: 'npm' })).data;
    assert.equal(npm.manager, 'npm');
    assert.ok(Array.isArray(npm.packages));
  }
  if (!whichSystem('python3') && !whichSystem('npm')) t.skip('neither pip nor npm');
});

test('service_status: unavailable without systemd, unit names validated', async () => {
  assert.equal((await callError(tools, 'service_status', { name: '--root=/x' })).errorClass, 'invalid_params');
  if (existsSync('/run/systemd/system')) {
    const r = (await call(tools, 'service_status', {})).data;
    assert.ok(r.units.length > 0);
    return;
  }
  const e = await callError(tools, 'service_status', {});
  assert.equal(e.errorClass, 'unavailable');
  assert.match(e.message, /systemd is not running/);
});

test.after(() => ctx.cleanup());

// One visibility rule for commands and adapters (SPEC §3.3, §4): every path below is judged by the
// commands' path policy (a `cat`/`ls` decision) and by the adapters (read_file/list_files), and
// both must give the same verdict with the same rule. A second table lists the names that denote a
// different object for each viewer — the viewer's own process and /tmp — with the verdict each gets.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { realPolicyFs } from '../../src/execution/real-policy-fs.js';
import { fileTools } from '../../src/control/tools/adapters-files.js';
import { decide } from '../../src/policy/decide.js';
import type { PolicyContext } from '../../src/policy/types.js';
import { call, makeDataDeps } from '../helpers/data-deps.js';

const d = makeDataDeps();
const tools = fileTools(d.deps);
// The adapters' own context, with the real executable lookup the command side needs.
const ctx: PolicyContext = { ...d.deps.policyContext(), fs: realPolicyFs };
const pid = process.pid;
// A thread of this (server) process: /proc/<tid> is openable though readdir never lists it.
const tid = readdirSync(`/proc/${pid}/task`).find((t) => t !== String(pid));
mkdirSync(join(d.ws, 'sub'));
writeFileSync(join(d.ws, 'sub', 'a.txt'), 'hello\n');
writeFileSync(join(d.stateDir, 'api-token'), 'not-a-real-token-but-long\n');
symlinkSync(`/proc/${pid}`, join(d.ws, 'server-link'));
symlinkSync('/proc/self', join(d.ws, 'self-link'));
symlinkSync('/var/lib', join(d.ws, 'out-link'));
after(() => d.cleanup());

type Kind = 'file' | 'dir';

/** The command verdict: 'ok' or the refusing rule. */
function commandVerdict(path: string, kind: Kind, c: PolicyContext = ctx): string {
  const r = decide({ command: [kind === 'dir' ? 'ls' : 'cat', path], cwd: d.ws }, c);
  return r.allow ? 'ok' : r.rule;
}

/** The adapter verdict: 'ok' or the refusing rule (other failures are shown as class:message). */
async function adapterVerdict(path: string, kind: Kind): Promise<string> {
  try {
    await call(tools, kind === 'dir' ? 'list_files' : 'read_file', { path });
    return 'ok';
  } catch (err) {
    const e = err as { errorClass?: string; rule?: string; message?: string };
    if (e.errorClass === 'path_denied' && e.rule) return e.rule;
    return `${e.errorClass}: ${e.message}`;
  }
}

// [path, kind, the verdict both viewers must give]
const SAME: Array<[string, Kind, string]> = [
  ['sub/a.txt', 'file', 'ok'],
  ['sub', 'dir', 'ok'],
  ['/etc/os-release', 'file', 'ok'],
  ['/usr/share', 'dir', 'ok'],
  ['/proc/meminfo', 'file', 'ok'],
  ['/proc/cpuinfo', 'file', 'ok'],
  ['/proc/1/comm', 'file', 'ok'],
  ['/proc/1/status', 'file', 'ok'],
  ['/etc/shadow', 'file', 'path.sensitive'],
  ['/proc/1/environ', 'file', 'path.sensitive'],
  ['/proc/1/mem', 'file', 'path.sensitive'],
  ['/proc/1/fd', 'dir', 'path.sensitive'],
  ['/proc/1/fdinfo', 'dir', 'path.sensitive'],
  ['/proc/1/auxv', 'file', 'path.sensitive'],
  ['/proc/1/root/etc/hostname', 'file', 'path.sensitive'],
  ['/proc/1/exe', 'file', 'path.sensitive'],
  ['/proc/1/pagemap', 'file', 'path.sensitive'],
  ['/proc/1/clear_refs', 'file', 'path.sensitive'],
  ['/proc/1/task', 'dir', 'ok'],
  ['/proc/1/net/dev', 'file', 'ok'],
  ['/proc/1/cwd', 'dir', 'path.sensitive'],
  ['/proc/self/environ', 'file', 'path.sensitive'],
  ['/proc/self/fd', 'dir', 'path.sensitive'],
  ['/proc/thread-self/environ', 'file', 'path.sensitive'],
  [`/proc/${pid}/environ`, 'file', 'path.sensitive'],
  [`/proc/${pid}`, 'dir', 'path.server_process'],
  [`/proc/${pid}/cmdline`, 'file', 'path.server_process'],
  [`/proc/${pid}/status`, 'file', 'path.server_process'],
  [`/proc/${pid}/task`, 'dir', 'path.server_process'],
  [`/proc/${tid}/status`, 'file', 'path.server_process'],
  [`/proc/${tid}`, 'dir', 'path.server_process'],
  ['server-link', 'dir', 'path.server_process'],
  ['server-link/status', 'file', 'path.server_process'],
  // A workspace link to /proc/self: policy resolves links as the server sees them, so it cannot
  // tell this from a link to the server's pid; refused for both (conservative for commands).
  ['self-link/status', 'file', 'path.server_process'],
  [join(homedir(), '.ssh'), 'dir', 'path.sensitive'],
  [homedir(), 'dir', 'path.home'],
  [d.stateDir, 'dir', 'path.state_dir'],
  [join(d.stateDir, 'api-token'), 'file', 'path.state_dir'],
  ['/var/lib/dpkg/status', 'file', 'path.outside_roots'],
  ['out-link', 'dir', 'path.symlink_escape'],
  // F6: the sysfs parts the sandbox hides (SYS_HIDDEN) are hidden from adapters as well.
  ['/sys/kernel/vmcoreinfo', 'file', 'path.sensitive'],
  ['/sys/kernel', 'dir', 'path.sensitive'],
  ['/sys/firmware', 'dir', 'path.sensitive'],
  ['/sys/firmware/memmap', 'dir', 'path.sensitive'],
  ['/sys/class', 'dir', 'ok'],
];

describe('commands and adapters agree: same verdict, same rule', () => {
  for (const [path, kind, expected] of SAME) {
    test(`${path} → ${expected}`, async () => {
      assert.equal(commandVerdict(path, kind), expected, `command ${path}`);
      assert.equal(await adapterVerdict(path, kind), expected, `adapter ${path}`);
    });
  }
});

// [path, kind, command verdict, adapter verdict, why they differ]
const OWN: Array<[string, Kind, string, string, string]> = [
  ['/proc/self', 'dir', 'ok', 'path.server_process', "a command's /proc/self is its own sandboxed process; an adapter's is the server"],
  ['/proc/self/status', 'file', 'ok', 'path.server_process', 'same'],
  ['/proc/self/cmdline', 'file', 'ok', 'path.server_process', 'same'],
  ['/proc/thread-self/status', 'file', 'ok', 'path.server_process', 'same'],
  ['/proc/mounts', 'file', 'ok', 'path.server_process', '/proc/mounts links to self/mounts'],
  ['/proc/net/dev', 'file', 'ok', 'path.server_process', '/proc/net links to self/net'],
  ['/dev/stdin', 'file', 'ok', 'path.sensitive', "the opener's own descriptor: for an adapter, the server's fd 0"],
];

describe("names of the viewer's own process: a command reads itself, an adapter never reads the server", () => {
  for (const [path, kind, cmd, adapter, why] of OWN) {
    test(`${path}: command ${cmd}, adapter ${adapter} (${why})`, async () => {
      assert.equal(commandVerdict(path, kind), cmd, `command ${path}`);
      assert.equal(await adapterVerdict(path, kind), adapter, `adapter ${path}`);
    });
  }
});

describe('the host /tmp', () => {
  test('outside the roots: a command reads its private /tmp; an adapter (the host /tmp) and an unconfined command are refused alike', async () => {
    assert.equal(commandVerdict('/tmp', 'dir'), 'ok');
    assert.equal(commandVerdict('/tmp', 'dir', { ...ctx, privateTmp: false }), 'path.outside_roots');
    assert.equal(await adapterVerdict('/tmp', 'dir'), 'path.outside_roots');
  });
});

describe('walks apply the same rule to every entry', () => {
  test("list_files /proc never lists the server's own process or self links", async () => {
    const r = await call(tools, 'list_files', { path: '/proc', include_hidden: true, limit: 1000 });
    const names = r.data.files.map((f: { path: string }) => f.path);
    assert.ok(names.includes('meminfo') && names.includes('1'), names.slice(0, 20).join(','));
    for (const hidden of [String(pid), 'self', 'thread-self']) assert.ok(!names.includes(hidden), `${hidden} listed`);
  });
  test('list_files /sys does not list the parts the sandbox hides', async () => {
    const r = await call(tools, 'list_files', { path: '/sys', include_hidden: true, limit: 1000 });
    const names = r.data.files.map((f: { path: string }) => f.path);
    assert.ok(names.includes('class'), names.join(','));
    for (const hidden of ['kernel', 'firmware']) assert.ok(!names.includes(hidden), `${hidden} listed`);
  });
  test('list_files /proc/1 does not list its private entries', async () => {
    const r = await call(tools, 'list_files', { path: '/proc/1', include_hidden: true, limit: 1000 });
    const names = r.data.files.map((f: { path: string }) => f.path);
    assert.ok(names.includes('status'), names.join(','));
    for (const hidden of ['environ', 'mem', 'fd', 'fdinfo', 'auxv', 'root', 'cwd', 'exe', 'pagemap']) assert.ok(!names.includes(hidden), `${hidden} listed`);
  });
});

// The policy record and its fingerprint: every setting that changes what a command may do or how it
// is confined changes the fingerprint; settings that do not (limits of the server itself) do not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { bindPolicy, canonicalJson, policyFingerprint, policyRecordOf } from '../../src/config/policy-record.js';
import type { Runtime } from '../../src/config/runtime.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { createDeps } from '../../src/control/app.js';
import { sandboxOptions } from '../../src/control/tools/run-command-exec.js';
import { cgroupLimitsFromPolicy, sandboxFromPolicy } from '../../src/sandbox/policy-sandbox.js';

const runtime: Runtime = { profile: 'workspace-write', workspaceRoots: ['/w/a'], readRoots: ['/w/a', '/var/log'], writeRoots: ['/w/a'], stateDir: '/s', homeDir: '/h' };
const fp = (config: Record<string, unknown> = {}, rt: Partial<Runtime> = {}) => policyFingerprint(policyRecordOf(ConfigSchema.parse(config), { ...runtime, ...rt }));
const base = fp();

describe('policy fingerprint', () => {
  const changes: Array<[string, string]> = [
    ['profile', fp({}, { profile: 'read-only', writeRoots: [] })],
    ['workspace roots', fp({}, { workspaceRoots: ['/w/b'], readRoots: ['/w/b', '/var/log'], writeRoots: ['/w/b'] })],
    ['read roots', fp({}, { readRoots: ['/w/a'] })],
    ['write roots', fp({}, { writeRoots: [] })],
    ['root order (the first root is the default cwd)', fp({}, { workspaceRoots: ['/w/a', '/w/c'] })],
    ['state dir', fp({}, { stateDir: '/s2' })],
    ['home dir', fp({}, { homeDir: '/h2' })],
    ['allow_network', fp({ policy: { allow_network: true } })],
    ['extra_allowed_commands', fp({ policy: { extra_allowed_commands: ['touch'] } })],
    ['extra_denied_commands', fp({ policy: { extra_denied_commands: ['git'] } })],
    ['bubblewrap off', fp({ sandbox: { bubblewrap: 'off' } })],
    ['sandbox.require', fp({ sandbox: { require: true } })],
    ['memory limit', fp({ sandbox: { memory_max_mb: 1024 } })],
    ['pids limit', fp({ sandbox: { pids_max: 64 } })],
    ['cpu limit', fp({ sandbox: { cpu_percent: 100 } })],
    ['file size limit', fp({ sandbox: { file_size_max_mb: 10 } })],
  ];
  for (const [what, other] of changes) it(`changes with ${what}`, () => assert.notEqual(other, base));

  const same: Array<[string, string]> = [
    ['jobs.max_running', fp({ jobs: { max_running: 9 } })],
    ['log level', fp({ log: { level: 'debug' } })],
    ['control lanes', fp({ control: { max_inflight: 2 } })],
    ['the order of extra commands', fp({ policy: { extra_allowed_commands: ['b', 'a'] } }) === fp({ policy: { extra_allowed_commands: ['a', 'b', 'a'] } }) ? base : 'differs'],
  ];
  for (const [what, other] of same) it(`does not change with ${what}`, () => assert.equal(other, base));

  it('canonical JSON sorts keys at every level and keeps array order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
    assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
    assert.match(base, /^[0-9a-f]{64}$/);
  });
});

describe('the recorded policy confines exactly like the server', () => {
  for (const profile of ['read-only', 'workspace-write', 'full'] as const) {
    it(`sandbox options from the record equal run_command's (${profile})`, () => {
      const config = ConfigSchema.parse({ policy: { allow_network: true }, sandbox: { file_size_max_mb: 7, memory_max_mb: 300 } });
      const rt = { ...runtime, profile };
      const deps = createDeps(config, rt, pino({ level: 'silent' }));
      const record = bindPolicy(policyRecordOf(config, rt)).record;
      for (const net of [false, true]) {
        const ours = sandboxFromPolicy(record, '/w/a', net);
        const theirs = sandboxOptions(deps, '/w/a', net && profile !== 'read-only');
        assert.deepEqual({ ...ours, network: ours.network || profile === 'full' }, { ...theirs, network: theirs.network || profile === 'full' });
      }
      assert.deepEqual(cgroupLimitsFromPolicy(record), { memoryBytes: 300 * 1024 * 1024, pidsMax: 512, cpuPercent: 200 });
    });
  }
});

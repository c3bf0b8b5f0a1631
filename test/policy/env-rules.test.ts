// Env rules: injection variables refused, secrets filtered and redacted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolicyDenial } from '../../src/policy/denial.js';
import { checkEnv, filterServerEnv } from '../../src/policy/env-rules.js';

function rule(env: Record<string, string>): string | null {
  try {
    checkEnv(env);
    return null;
  } catch (err) {
    assert.ok(err instanceof PolicyDenial);
    return err.rule;
  }
}

describe('checkEnv', () => {
  const injection = ['LD_PRELOAD', 'GLIBC_TUNABLES', 'LD_AUDIT', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV', 'PATH', 'IFS', 'CDPATH', 'PS4', 'SHELLOPTS',
    'GIT_CONFIG_COUNT', 'GIT_CONFIG_PARAMETERS', 'GIT_SSH_COMMAND', 'GIT_PAGER', 'GIT_EXEC_PATH', 'GIT_DIR', 'NODE_OPTIONS',
    'PYTHONPATH', 'PYTHONHOME', 'PERL5LIB', 'RUBYOPT', 'LESSOPEN', 'EDITOR', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'GREP_OPTIONS',
    'SSH_ASKPASS', 'BROWSER', 'TAR_OPTIONS', 'MANPAGER', 'SYSTEMD_PAGER'];
  for (const name of injection) it(`refuses ${name}`, () => assert.equal(rule({ [name]: 'x' }), 'env.injection'));
  for (const name of ['FOO', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'http_proxy', 'GIT_AUTHOR_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_TERMINAL_PROMPT', 'CI', 'NO_COLOR']) {
    it(`allows ${name}`, () => assert.equal(rule({ [name]: 'x' }), null));
  }
  for (const name of ['1A', 'A-B', 'A B', 'A=B', '', 'É']) it(`refuses name ${JSON.stringify(name)}`, () => assert.equal(rule({ [name]: 'x' }), 'env.bad_name'));
  it('refuses NUL in a value', () => assert.equal(rule({ A: 'a\0b' }), 'env.control_char'));
});

describe('child environment', () => {
  it('filterServerEnv drops secrets, the server\'s own WORKBENCH_* settings and loader variables, keeps the rest', () => {
    const out = filterServerEnv({ HOME: '/h', PATH: '/bin', GITHUB_TOKEN: 't', LD_PRELOAD: 'x', NODE_OPTIONS: 'y', LANG: 'C', WORKBENCH_HOME: '/s', AWS_REGION: 'eu-west-1', U: undefined }, []);
    assert.deepEqual(out, { HOME: '/h', PATH: '/bin', LANG: 'C', AWS_REGION: 'eu-west-1' });
  });
});

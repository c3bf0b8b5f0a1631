// Secret names and values: which values are redacted from output (exact) and which variables are
// dropped from a child's environment (broad). Two tables each: secrets, and settings that are not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, isLocation, isRedactable, MIN_SECRET_CHARS, REDACTED } from '../../src/policy/redact.js';
import { serverSecretValues } from '../../src/control/redaction.js';
import { filterServerEnv } from '../../src/policy/env-rules.js';
import { dropFromChildEnv, isSecretName, secretPartsOf } from '../../src/policy/secret-names.js';

/** Redacts `value` as the server would if variable `name` held it. */
function redactAs(name: string, value: string): string {
  return createRedactor(secretPartsOf(name, value)).text(`before ${value} after`);
}

// [name, value, what must be gone from the output]
const SECRETS: Array<[string, string, string]> = [
  ['GITHUB_TOKEN', 'ghp_6yT4kQ2mN8pL0sW3vX1zR5bJ7cD9fH2a', 'ghp_6yT4kQ2mN8pL0sW3vX1zR5bJ7cD9fH2a'],
  ['NPM_TOKEN', 'npm_Zq81xYw0vU2tS4rQ6pO8nM', 'npm_Zq81xYw0vU2tS4rQ6pO8nM'],
  ['AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['AWS_ACCESS_KEY_ID', 'AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  ['AWS_SESSION_TOKEN', 'FwoGZXIvYXdzEJr//////////wEaDH', 'FwoGZXIvYXdzEJr//////////wEaDH'],
  ['OPENAI_API_KEY', 'sk-proj-abcdefghijklmnop', 'sk-proj-abcdefghijklmnop'],
  ['DB_PASSWORD', 'hunter2-but-longer', 'hunter2-but-longer'],
  ['MY_PASSWD', 'p4ssw0rd-9911', 'p4ssw0rd-9911'],
  ['PGPASSWORD', 'pg-secret-771', 'pg-secret-771'],
  ['MYSQL_PWD', 'mysql-secret-42', 'mysql-secret-42'],
  ['STRIPE_KEY', 'rk_live_51Habc0123', 'rk_live_51Habc0123'],
  ['SLACK_KEY_1', 'xoxb-1234-5678-abcd', 'xoxb-1234-5678-abcd'],
  ['WORKBENCH_API_KEY', 'wb-key-0a1b2c3d4e', 'wb-key-0a1b2c3d4e'],
  ['WORKBENCH_TOKEN', 'wb-token-5f6e7d8c9b', 'wb-token-5f6e7d8c9b'],
  ['X_AUTH', 'Basic dXNlcjpwYXNz', 'Basic dXNlcjpwYXNz'],
  ['SESSION_COOKIE', 'sid=8f7e6d5c4b3a2910', 'sid=8f7e6d5c4b3a2910'],
  ['JWT_SECRET', 'jwt-signing-material', 'jwt-signing-material'],
  ['GITHUBTOKEN', 'gho_16C7e42F292c6912E7710c838347Ae178B4a', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['SIGNING_KEY', 'ed25519:AAAAC3NzaC1lZDI1', 'ed25519:AAAAC3NzaC1lZDI1'],
  ['SSH_PASSPHRASE', 'correct horse battery', 'correct horse battery'],
  ['AZURE_STORAGE_CONNECTION_STRING', 'DefaultEndpointsProtocol=https;AccountKey=abc123==', 'AccountKey=abc123=='],
  ['SENTRY_DSN', 'https://4f3e2d1c0b9a8877@o1.ingest.sentry.io/42', '4f3e2d1c0b9a8877'],
  ['DATABASE_URL', 'postgres://app:pw-9f8e7d6c@db.internal:5432/app', 'pw-9f8e7d6c'],
  ['HTTPS_PROXY', 'http://me:proxy-pass-123@proxy:3128', 'proxy-pass-123'],
  ['REDIS_URL', 'redis://:r3dis-pa%24%24word@cache:6379', 'r3dis-pa$$word'],
];

// [name, value]: must come back verbatim.
const NOT_SECRETS: Array<[string, string]> = [
  ['WORKBENCH_HOME', '/srv/workbench/state'],
  ['AWS_CA_BUNDLE', '/etc/ssl/certs/corp-ca-bundle.pem'],
  ['AWS_CONFIG_FILE', '/home/dev/.aws/config'],
  ['AWS_SHARED_CREDENTIALS_FILE', '/home/dev/.aws/credentials'],
  ['AWS_PROFILE', 'production-admin'],
  ['AWS_REGION', 'eu-central-1'],
  ['AWS_DEFAULT_REGION', 'ap-southeast-2'],
  ['SSH_AUTH_SOCK', '/tmp/ssh-XXXXabcd/agent.12345'],
  ['KUBECONFIG', '/home/dev/.kube/config-prod'],
  ['SECRET_FILE', '/run/secrets/db-password'],
  ['TOKENIZERS_PARALLELISM', 'false-but-long'],
  ['DATABASE_URL', 'postgres://db.internal:5432/app'],
  ['REDIS_URL', 'redis://localhost:6379/0'],
  ['VAULT_ADDR', 'https://vault.internal:8200'],
  ['AUTH_URL', 'https://login.example.com/oauth'],
  ['GPG_KEY_ID', '0x1234ABCD5678EF90'],
  ['PUBLIC_KEY', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5'],
  ['XDG_SESSION_ID', 'session-c2-long'],
  ['DESKTOP_SESSION', 'ubuntu-wayland'],
  ['NODE_EXTRA_CA_CERTS', '/usr/local/share/ca-certificates/corp.crt'],
  ['HOME', '/home/developer'],
  ['PWD', '/home/developer/project'],
  ['OLDPWD', '/home/developer/other'],
  ['LANG', 'en_US.UTF-8'],
  ['GIT_AUTHOR_NAME', 'Ada Lovelace'],
  ['KEYBOARD_LAYOUT', 'dvorak-programmer'],
  ['AUTHOR', 'someone-known'],
];

describe('redaction: secret names (value gone from output)', () => {
  for (const [name, value, gone] of SECRETS) {
    it(`${name} is redacted`, () => {
      const out = redactAs(name, value);
      assert.ok(!out.includes(gone), `${name}: ${out}`);
      assert.ok(out.includes(REDACTED), out);
    });
  }
});

describe('redaction: settings and locations (value verbatim)', () => {
  for (const [name, value] of NOT_SECRETS) {
    it(`${name} is not redacted`, () => assert.equal(redactAs(name, value), `before ${value} after`));
  }
  it('WORKBENCH_HOME, AWS_CA_BUNDLE and friends are not secret names', () => {
    for (const n of ['WORKBENCH_HOME', 'AWS_CA_BUNDLE', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_PROFILE', 'AWS_REGION', 'SSH_AUTH_SOCK']) {
      assert.equal(isSecretName(n), false, n);
    }
  });
});

describe('redaction threshold', () => {
  it(`values under ${MIN_SECRET_CHARS} characters, common words, numbers and one repeated character are ignored`, () => {
    for (const v of ['abc1234', 'true', 'changeme', 'password', 'localhost', '1234567890123', 'xxxxxxxxxx']) assert.equal(isRedactable(v), false, v);
    for (const v of ['abcd1234', 'ghp_6yT4kQ2m', '/tokenwithoneslash', 'x9-long-enough']) assert.equal(isRedactable(v), true, v);
  });
  it('a location is a path-shaped value that exists, or whose directory exists; key material that starts with / is not', () => {
    const disk = new Set(['/home/u', '/etc/ssl/certs/ca.pem']);
    const exists = (p: string) => disk.has(p);
    assert.equal(isLocation('/home/u/key.json', exists), true);
    assert.equal(isLocation('/etc/ssl/certs/ca.pem', exists), true);
    assert.equal(isLocation('/K7MDENG/bPxRfiCYEXAMPLEKEY', exists), false);
    assert.equal(isLocation('/tokenwithoneslash', exists), false);
    assert.equal(isLocation('not a path', exists), false);
  });
  it('a short value in a secret-named variable is not redacted from ordinary output', () => {
    assert.equal(redactAs('API_TOKEN', 'abc'), 'before abc after');
    assert.equal(redactAs('DEBUG_PASSWORD', 'true'), 'before true after');
  });
  it('longer secrets win over their prefixes; every occurrence goes; nested values and keys too', () => {
    const r = createRedactor(['abcdefgh', 'abcdefgh-ijkl']);
    assert.equal(r.text('x abcdefgh-ijkl y abcdefgh'), `x ${REDACTED} y ${REDACTED}`);
    assert.deepEqual(r.value({ a: ['abcdefgh'], abcdefgh: 1, n: 2, b: { c: 'q abcdefgh' } }), { a: [REDACTED], [REDACTED]: 1, n: 2, b: { c: `q ${REDACTED}` } });
  });
  it('errors keep their message and stack, redacted; cycles and very deep values never pass through unredacted', () => {
    const r = createRedactor(['abcdefgh']);
    const err = new Error('failed with abcdefgh');
    const out = r.value({ err } as unknown) as { err: { type: string; message: string; stack: string } };
    assert.equal(out.err.type, 'Error');
    assert.equal(out.err.message, `failed with ${REDACTED}`);
    assert.ok(!out.err.stack.includes('abcdefgh'));
    const cyclic: Record<string, unknown> = { s: 'abcdefgh' };
    cyclic.self = cyclic;
    assert.deepEqual(r.value(cyclic), { s: REDACTED, self: '[Circular]' });
    let deep: unknown = 'x abcdefgh';
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.ok(!JSON.stringify(r.value(deep)).includes('abcdefgh'));
  });
  it('regex metacharacters in a secret are literal', () => {
    assert.equal(createRedactor(['a.b*c+d?e']).text('a.b*c+d?e aXbbcdde'), `${REDACTED} aXbbcdde`);
  });
});

describe('child environment (broad, separate from redaction)', () => {
  for (const n of ['GITHUB_TOKEN', 'WORKBENCH_HOME', 'WORKBENCH_ANYTHING', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_PROFILE', 'SSH_AUTH_SOCK', 'KUBECONFIG', 'SECRET_FILE', 'DATABASE_URL', 'GOOGLE_APPLICATION_CREDENTIALS']) {
    it(`${n} is dropped from the child`, () => assert.equal(dropFromChildEnv(n, 'some-value-1234', []), true));
  }
  for (const n of ['HOME', 'PATH', 'LANG', 'PWD', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'TOKENIZERS_PARALLELISM', 'GIT_AUTHOR_NAME', 'TZ', 'CI']) {
    it(`${n} reaches the child`, () => assert.equal(dropFromChildEnv(n, 'some-value-1234', []), false));
  }
});

// F9/F9b: a variable whose value output would redact must never reach a child, where `printenv X |
// rev` would print it past the redactor. Checked against the real redactor, not a copy of its rule.
describe('every variable the redactor hides is dropped from the child', () => {
  const CONFIGURED = ['MY_SETTING', 'AWS_REGION'];
  const ATTACKS: Array<[string, string]> = [
    ['MY_SETTING', 'canaryQ7w8e9r0t1y2'],
    ['AWS_REGION', 'configured-region-canary'],
    ['PIP_INDEX_URL', 'https://bob:s3cretTok3nXYZ@pypi.example/simple'],
    ['HTTPS_PROXY', 'http://proxyuser:proxyPassw0rd9@proxy.example:3128'],
    ['ALL_PROXY', 'socks5://u:s0cksPassw0rd@127.0.0.1:1080'],
    ['MONGO_URL', 'mongodb://app:m0ngoPassw0rd@db.example/app'],
    ['POSTGRES_URL', 'postgres://pg:pgPassw0rd77@db.example/x'],
    ['AMQP_URL', 'amqp://rabbit:rabbitPassw0rd@mq.example'],
    ['GITHUB_TOKEN', 'ghp_CANARYabcdef1234567890XYZ'],
    ['NPM_TOKEN', 'npm_tokenCanary123456'],
    ['SENTRY_DSN', 'https://publickey123456@sentry.example/1'],
  ];
  for (const [name, value] of ATTACKS) {
    it(`${name} is redacted in output and dropped from the child`, () => {
      const redactor = createRedactor(serverSecretValues({ [name]: value }, CONFIGURED, undefined));
      assert.notEqual(redactor.text(`x ${value} y`), `x ${value} y`, 'the redactor hides it');
      assert.equal(dropFromChildEnv(name, value, CONFIGURED), true);
      assert.deepEqual(filterServerEnv({ [name]: value, LANG: 'C' }, CONFIGURED), { LANG: 'C' });
    });
  }
  const LEGIT: Array<[string, string]> = [
    ['HTTPS_PROXY', 'http://proxy.example:3128'],
    ['PIP_INDEX_URL', 'https://pypi.example/simple'],
    ['GIT_URL', 'https://user@git.example/repo.git'],
    ['AWS_DEFAULT_REGION', 'eu-west-1'],
    ['LANG', 'C.UTF-8'],
  ];
  for (const [name, value] of LEGIT) {
    it(`legit: ${name}=${value} is neither redacted nor dropped`, () => {
      const redactor = createRedactor(serverSecretValues({ [name]: value }, CONFIGURED, undefined));
      assert.equal(redactor.text(`x ${value} y`), `x ${value} y`);
      assert.equal(dropFromChildEnv(name, value, CONFIGURED), false);
    });
  }
});

// Which environment variables hold secrets. Two different questions, kept apart on purpose:
//  - dropFromChildEnv: may this variable reach a child process? Broad: dropping a harmless path
//    variable (AWS_CONFIG_FILE, WORKBENCH_HOME) costs nothing, leaking a credential costs a lot.
//  - secretValuesOf: which parts of this variable's VALUE are secret, to be redacted from output?
//    Exact: a path, a region or a profile name redacted inside ordinary output is a defect.
// One rule links them: a variable with any secret value is dropped (dropFromChildEnv calls
// secretValuesOf first), so a child can never print — reversed, encoded — what output redacts.

/** Words (between `_`) that mark a value as secret. */
const SECRET_WORDS = new Set([
  'TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWORDS', 'PASSWD', 'PASS', 'PASSPHRASE', 'PWD', 'CREDENTIAL',
  'CREDENTIALS', 'CREDS', 'APIKEY', 'AUTHTOKEN', 'ACCESSTOKEN', 'COOKIE', 'COOKIES', 'AUTH', 'KEY', 'PRIVATEKEY', 'DSN',
]);
/** Substrings that mark a secret even inside a longer word (`GITHUBTOKEN`, `MYSQLPASSWORD`). */
const SECRET_INFIXES = ['PASSWORD', 'PASSWD', 'SECRET', 'CREDENTIAL', 'APIKEY', 'ACCESSTOKEN', 'AUTHTOKEN', 'CONNECTION_STRING'];
/**
 * A last word that makes the variable a location or a setting, whatever comes before
 * (`AWS_SHARED_CREDENTIALS_FILE`, `SSH_AUTH_SOCK`, `AUTH_URL`). URLs are judged by their value instead.
 */
const SETTING_SUFFIXES = new Set([
  'FILE', 'FILES', 'PATH', 'DIR', 'DIRS', 'HOME', 'BUNDLE', 'CONFIG', 'PROFILE', 'REGION', 'SOCK', 'SOCKET', 'ADDR', 'ADDRESS',
  'HOST', 'PORT', 'URL', 'URI', 'ENDPOINT', 'DOMAIN', 'ID', 'NAME', 'USER', 'USERNAME', 'TYPE', 'MODE', 'LEVEL', 'ENABLED',
  'TIMEOUT', 'TTL', 'EXPIRY', 'EXPIRES', 'EXPIRATION', 'LENGTH', 'METHOD', 'HEADER', 'PROVIDER', 'SCOPE', 'SCOPES', 'ALGORITHM',
  'FORMAT', 'VERSION', 'CMD', 'COMMAND',
]);
/** Names that hold a secret although their last word says "setting". */
const SECRET_EXACT = new Set(['AWS_ACCESS_KEY_ID', 'MYSQL_PWD', 'PGPASSWORD']);
/** The working directory variables: `PWD` is a word of MYSQL_PWD, but PWD itself is a path. */
const NOT_SECRET = new Set(['PWD', 'OLDPWD']);
/** scheme://userinfo@ at the start of a value (a DSN, a proxy or a clone URL with credentials). */
const URL_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/([^/@\s]+)@/i;

function words(name: string): string[] {
  return name.toUpperCase().split('_').filter((w) => w !== '');
}

/**
 * True when the name says the variable holds a secret value (tokens, passwords, keys, credentials,
 * session cookies, DSNs); false for locations and settings (`WORKBENCH_HOME`, `AWS_CA_BUNDLE`,
 * `AWS_CONFIG_FILE`, `AWS_SHARED_CREDENTIALS_FILE`, `AWS_PROFILE`, `AWS_REGION`, `SSH_AUTH_SOCK`).
 */
export function isSecretName(name: string): boolean {
  const n = name.toUpperCase();
  if (SECRET_EXACT.has(n)) return true;
  if (NOT_SECRET.has(n)) return false;
  const w = words(n);
  if (SETTING_SUFFIXES.has(w.at(-1) ?? '') || w.includes('PUBLIC') || w.includes('PUBKEY')) return false;
  if (w.some((x) => SECRET_WORDS.has(x)) || n.endsWith('TOKEN')) return true;
  return SECRET_INFIXES.some((s) => n.includes(s));
}

/**
 * The secret strings inside one variable's value. A URL with credentials (any variable:
 * `DATABASE_URL`, `HTTPS_PROXY`, `SENTRY_DSN`) yields its password, and its whole userinfo when it
 * has a password or the name is secret; the rest of the URL is not secret. Otherwise a secret name
 * yields the whole value. Values too short or too common to be secrets are dropped in redact.ts.
 */
export function secretPartsOf(name: string, value: string): string[] {
  const secret = isSecretName(name);
  const m = URL_USERINFO.exec(value);
  if (m === null) return secret ? [value] : [];
  const userinfo = m[1]!;
  const colon = userinfo.indexOf(':');
  if (colon < 0) return secret ? unique([userinfo, safeDecode(userinfo)]) : [];
  const password = userinfo.slice(colon + 1);
  return unique([userinfo, password, safeDecode(password)]);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The secret values of one variable: for a name the person listed in `[secrets] env` the whole
 * value (and any URL credentials in it), else secretPartsOf. The redactor hides these values
 * (src/control/redaction.ts) and dropFromChildEnv keeps every variable that has one from a child.
 */
export function secretValuesOf(name: string, value: string, configured: readonly string[]): string[] {
  const parts = secretPartsOf(name, value);
  return configured.includes(name) ? unique([value, ...parts]) : parts;
}

/** Prefixes whose variables never reach a child even when their names look harmless (the server's own settings, cloud sessions). */
const DROP_PREFIXES = ['WORKBENCH_', 'AWS_', 'AZURE_', 'GOOGLE_', 'GCLOUD_', 'VAULT_'];
/** Variables that let a child reach the user's agents or cluster credentials. */
const DROP_EXACT = new Set(['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'KUBECONFIG', 'DOCKER_CONFIG', 'DATABASE_URL', 'REDIS_URL', 'MONGODB_URI']);

/** Plain settings under a dropped prefix that tools in the child legitimately read. */
const KEEP_IN_CHILD = new Set(['AWS_REGION', 'AWS_DEFAULT_REGION']);

/**
 * True when the variable is dropped from a child's environment: every variable with a secret value
 * (secretValuesOf: the configured names, secret names, URL credentials in any variable), and,
 * deliberately broader, secret-looking settings and the server's own WORKBENCH_* / cloud variables
 * (a child never needs them, and dropping a path is harmless). Never used for redaction.
 */
export function dropFromChildEnv(name: string, value: string, configured: readonly string[]): boolean {
  if (secretValuesOf(name, value, configured).length > 0) return true;
  const n = name.toUpperCase();
  if (KEEP_IN_CHILD.has(n)) return false;
  if (DROP_EXACT.has(n) || DROP_PREFIXES.some((p) => n.startsWith(p))) return true;
  if (isSecretName(n)) return true;
  const w = words(n);
  return w.some((x) => SECRET_WORDS.has(x) && x !== 'PWD') || SECRET_INFIXES.some((s) => n.includes(s));
}

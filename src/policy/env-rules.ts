// Environment policy: caller-supplied variables may not inject code into the programs Workbench
// runs (loader, shell, interpreter and git overrides), and the server's own secrets never reach a
// child (redaction from output is redact.ts, with the exact rule of secret-names.ts).
import { PolicyDenial, refuse } from './denial.js';
import { dropFromChildEnv } from './secret-names.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const INJECTION = new Set([
  'BASH_ENV', 'ENV', 'PATH', 'IFS', 'CDPATH', 'PS4', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'GLOBIGNORE', 'HOME',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONINSPECT',
  'PYTHONUSERBASE', 'PYTHONBREAKPOINT', 'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'LESSOPEN',
  'LESSCLOSE', 'PAGER', 'EDITOR', 'VISUAL', 'MANPAGER', 'SYSTEMD_PAGER', 'SYSTEMD_EDITOR', 'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'TAR_OPTIONS', 'GREP_OPTIONS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'BROWSER',
  'RIPGREP_CONFIG_PATH', 'SHELL', 'ZDOTDIR', 'INPUTRC', 'TERMINFO', 'LOCPATH', 'GCONV_PATH', 'HOSTALIASES',
  'RESOLV_HOST_CONF', 'MALLOC_CHECK_', 'GLIBC_TUNABLES', 'OPENSSL_CONF', 'OPENSSL_ENGINES', 'NLSPATH', 'GETCONF_DIR', 'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS', 'npm_config_script_shell', 'NPM_CONFIG_SCRIPT_SHELL', 'CARGO_HOME', 'RUSTC_WRAPPER', 'GOFLAGS',
]);
const INJECTION_PREFIXES = ['LD_', 'DYLD_', 'GIT_', 'BASH_FUNC_', 'PYTHONEXEC', 'LUA_'];
const GIT_SAFE = new Set(['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE', 'GIT_TERMINAL_PROMPT']);

/** True when setting `name` can make a program load or run code the caller chose. */
export function isInjectionName(name: string): boolean {
  if (INJECTION.has(name)) return true;
  if (GIT_SAFE.has(name)) return false;
  for (const p of INJECTION_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

/** Refuses bad names (`env.bad_name`), NUL in values (`env.control_char`) and injection variables (`env.injection`). */
export function checkEnv(env: Record<string, string> | undefined): void {
  if (env === undefined) return;
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (!NAME.test(name)) throw new PolicyDenial('env.bad_name', `environment variable name ${JSON.stringify(name)} is invalid; use letters, digits and _ (not starting with a digit)`, 'invalid_params');
    if (typeof value !== 'string') throw new PolicyDenial('env.bad_value', `environment variable ${name} must be a string`, 'invalid_params');
    if (value.includes('\0')) refuse('env.control_char', `environment variable ${name} contains a NUL byte`);
    if (isInjectionName(name)) refuse('env.injection', `environment variable ${name} can inject code into the command (loader, shell, interpreter or git override); it cannot be set`);
  }
}

/**
 * The server's environment minus every variable whose value output would redact (the person's
 * `[secrets] env` names, secret names, URL credentials: dropFromChildEnv, which is broader still)
 * and injection variables (PATH is kept: the runner replaces it).
 */
export function filterServerEnv(env: Record<string, string | undefined>, secretNames: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (value === undefined || dropFromChildEnv(name, value, secretNames)) continue;
    if (name !== 'PATH' && name !== 'HOME' && name !== 'SHELL' && isInjectionName(name)) continue;
    out[name] = value;
  }
  return out;
}

// How each package manager is asked for its installed packages, and how its answer is parsed.
import { whichSystem } from '../../sandbox/capabilities.js';

export interface Pkg {
  name: string;
  version: string;
}

export interface ManagerSpec {
  program: string;
  args: string[];
  env?: Record<string, string>;
  /** Host paths the manager reads beyond /usr, /etc and /opt (bound read-only into the sandbox view). */
  binds?: string[];
  /**
   * Where the host cannot confine: dpkg-query is a compiled program with our fixed argv that reads
   * only its database, so it runs (cwd `/`, scrubbed env, limits, deadline); pip, npm and brew
   * execute code they load from the filesystem (Python, JavaScript, Ruby), so they answer
   * `unavailable` instead.
   */
  unconfined: 'run' | 'refuse';
  parse: (out: string) => Pkg[];
}

export const MANAGERS = ['dpkg', 'brew', 'pip', 'npm'] as const;
/** Exported for the tests that prove the interpreter runs isolated. */
export const PIP_ARGS = ['-I', '-m', 'pip', 'list', '--format=json', '--disable-pip-version-check', '--no-input'];
// Lifecycle scripts off, no update check or funding notice, no audit request.
const NPM_ENV = { npm_config_ignore_scripts: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
export type Manager = (typeof MANAGERS)[number];

/** The command for a manager, or null when its program is not installed. */
export function managerSpec(m: Manager): ManagerSpec | null {
  switch (m) {
    case 'dpkg':
      return withProgram('dpkg-query', { args: ['-W', '-f=${binary:Package}\t${Version}\n'], binds: ['/var/lib/dpkg'], unconfined: 'run', parse: parseTabbed });
    case 'brew':
      return withProgram('brew', { args: ['list', '--versions'], env: { HOMEBREW_NO_AUTO_UPDATE: '1', HOMEBREW_NO_ANALYTICS: '1', HOMEBREW_NO_ENV_HINTS: '1' }, unconfined: 'refuse', parse: parseSpaced });
    case 'pip':
      // -I: isolated (no current directory or user site on sys.path, PYTHON* variables ignored).
      return withProgram('python3', { args: PIP_ARGS, env: { PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' }, unconfined: 'refuse', parse: parsePipJson });
    case 'npm':
      return withProgram('npm', { args: ['ls', '-g', '--depth=0', '--json'], env: NPM_ENV, unconfined: 'refuse', parse: parseNpmJson });
  }
}

function withProgram(name: string, rest: Omit<ManagerSpec, 'program'>): ManagerSpec | null {
  const program = whichSystem(name);
  return program ? { program, ...rest } : null;
}

function parseTabbed(out: string): Pkg[] {
  return out.split('\n').filter(Boolean).map((l) => {
    const [name, version = ''] = l.split('\t');
    return { name, version };
  });
}

function parseSpaced(out: string): Pkg[] {
  return out.split('\n').filter(Boolean).map((l) => {
    const [name, ...versions] = l.trim().split(/\s+/);
    return { name, version: versions.join(' ') };
  });
}

function parsePipJson(out: string): Pkg[] {
  const rows = JSON.parse(out || '[]') as Array<{ name: string; version: string }>;
  return rows.map((r) => ({ name: r.name, version: r.version }));
}

function parseNpmJson(out: string): Pkg[] {
  const deps = (JSON.parse(out || '{}') as { dependencies?: Record<string, { version?: string }> }).dependencies ?? {};
  return Object.entries(deps).map(([name, d]) => ({ name, version: d.version ?? '' }));
}

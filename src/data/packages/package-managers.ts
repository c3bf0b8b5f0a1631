// How each package manager is asked for its installed packages, and how its answer is parsed.
import { whichSystem } from '../../sandbox/capabilities.js';
import { minimalEnv } from '../spawn-bounded.js';

export interface Pkg {
  name: string;
  version: string;
}

export interface ManagerSpec {
  program: string;
  args: string[];
  env?: Record<string, string>;
  parse: (out: string) => Pkg[];
}

export const MANAGERS = ['dpkg', 'brew', 'pip', 'npm'] as const;
export type Manager = (typeof MANAGERS)[number];

/** The command for a manager, or null when its program is not installed. */
export function managerSpec(m: Manager): ManagerSpec | null {
  switch (m) {
    case 'dpkg':
      return withProgram('dpkg-query', { args: ['-W', '-f=${binary:Package}\t${Version}\n'], parse: parseTabbed });
    case 'brew':
      return withProgram('brew', { args: ['list', '--versions'], env: minimalEnv({ HOMEBREW_NO_AUTO_UPDATE: '1', HOMEBREW_NO_ANALYTICS: '1' }), parse: parseSpaced });
    case 'pip':
      return withProgram('python3', { args: ['-m', 'pip', 'list', '--format=json', '--disable-pip-version-check', '--no-input'], env: minimalEnv({ PIP_DISABLE_PIP_VERSION_CHECK: '1' }), parse: parsePipJson });
    case 'npm':
      return withProgram('npm', { args: ['ls', '-g', '--depth=0', '--json'], env: minimalEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false' }), parse: parseNpmJson });
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

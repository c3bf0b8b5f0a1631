// Row format shared by the attack and legitimate-use tables.
import type { CommandRequest, PolicyContext, Profile } from '../../src/policy/types.js';
import type { Fixture } from './fixture.js';

export type P = 'ro' | 'ww' | 'full' | 'all' | 'ro+ww' | 'ww+full';

export interface RowOpts {
  cwd?: string;
  env?: Record<string, string>;
  shell?: boolean;
  network?: boolean;
  mode?: 'sync' | 'job';
  ctx?: Partial<PolicyContext>;
}

export type Row = [P, string | string[], ...unknown[]];

const PROFILES: Record<P, Profile[]> = {
  ro: ['read-only'],
  ww: ['workspace-write'],
  full: ['full'],
  all: ['read-only', 'workspace-write', 'full'],
  'ro+ww': ['read-only', 'workspace-write'],
  'ww+full': ['workspace-write', 'full'],
};

/** Replaces @WS@, @STATE@, @HOME@, @BASE@ placeholders. */
export function fill(s: string, fx: Fixture, home: string): string {
  return s.replaceAll('@WS@', fx.ws).replaceAll('@STATE@', fx.state).replaceAll('@HOME@', home).replaceAll('@BASE@', fx.base);
}

export interface Case {
  name: string;
  profile: Profile;
  req: CommandRequest;
  ctx: PolicyContext;
  mode: 'sync' | 'job';
}

/** Expands a row into one case per profile. */
export function expand(p: P, command: string | string[], opts: RowOpts, fx: Fixture, home: string): Case[] {
  const cmd = typeof command === 'string' ? fill(command, fx, home) : command.map((c) => fill(c, fx, home));
  const env = opts.env ? Object.fromEntries(Object.entries(opts.env).map(([k, v]) => [k, fill(v, fx, home)])) : undefined;
  return PROFILES[p].map((profile) => ({
    name: `[${profile}] ${JSON.stringify(command)}${opts.shell ? ' (shell)' : ''}${opts.cwd ? ` cwd=${opts.cwd}` : ''}${env ? ` env=${Object.keys(env).join(',')}` : ''}`,
    profile,
    mode: opts.mode ?? 'sync',
    ctx: fx.ctx(profile, fillCtx(opts.ctx, fx, home)),
    req: {
      command: cmd,
      cwd: opts.cwd === undefined ? fx.ws : fill(opts.cwd, fx, home),
      env,
      shell: opts.shell,
      network: opts.network,
    },
  }));
}

/** True when a rule id matches an expectation (`x.*` prefix, or one of several). */
export function ruleMatches(rule: string, expect: string | string[]): boolean {
  const list = Array.isArray(expect) ? expect : [expect];
  return list.some((e) => (e.endsWith('*') ? rule.startsWith(e.slice(0, -1)) : rule === e));
}

/** Placeholders in string-valued context overrides (e.g. a state dir inside the workspace). */
function fillCtx(ctx: Partial<PolicyContext> | undefined, fx: Fixture, home: string): Partial<PolicyContext> | undefined {
  if (!ctx) return ctx;
  return Object.fromEntries(Object.entries(ctx).map(([k, v]) => [k, typeof v === 'string' ? fill(v, fx, home) : v]));
}

// What `workbench doctor` does: probe the host and print the checks as a table or JSON.
import { createRequire } from 'node:module';
import { describeLayers, detectCapabilities, promisedLayers, type HostCapabilities } from '../sandbox/capabilities.js';
import { loadSettings } from './boot.js';
import { fail, type GlobalFlags } from './flags.js';
import { safeJson } from '../shared/escape-text.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Prints the doctor report. */
export async function runDoctor(flags: GlobalFlags & { json?: boolean }): Promise<void> {
  let settings;
  try {
    settings = loadSettings(flags);
  } catch (err) {
    fail((err as Error).message);
  }
  const caps = await detectCapabilities(settings.runtime.stateDir);
  const checks = runChecks(caps);
  const fallen = fallenLayers(caps, settings.runtime.profile, settings.config.sandbox.bubblewrap === 'off');
  const report = {
    version: (createRequire(import.meta.url)('../../../package.json') as { version: string }).version,
    profile: settings.runtime.profile,
    workspace_roots: settings.runtime.workspaceRoots,
    state_dir: settings.runtime.stateDir,
    sandbox_layers: caps.layers,
    sandbox_required: settings.config.sandbox.require,
    missing_layers: fallen,
    checks,
  };
  if (flags.json) return void process.stdout.write(`${safeJson(report, 2)}\n`);
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.map((c) => `${c.ok ? 'ok  ' : 'no  '} ${c.name.padEnd(width)}  ${c.detail}`);
  lines.push('', `profile: ${report.profile}`, `active sandbox layers: ${caps.layers.join(', ')}`);
  for (const f of fallen) lines.push(`MISSING: the ${report.profile} profile promises ${f.layer}, which is not active: ${f.detail}`);
  if (fallen.length > 0) {
    lines.push(settings.config.sandbox.require ? 'sandbox.require = true: commands will be REFUSED until every promised layer works' : 'commands run without the missing layers; set sandbox.require = true to refuse instead');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Layers the profile promises that are not active here, each with the reason. */
function fallenLayers(caps: HostCapabilities, profile: 'read-only' | 'workspace-write' | 'full', bubblewrapOff: boolean): Array<{ layer: string; detail: string }> {
  const rows = describeLayers(caps);
  return promisedLayers(profile)
    .filter((l) => !caps.layers.includes(l) || (bubblewrapOff && l !== 'cgroup-limits'))
    .map((l) => ({ layer: l, detail: bubblewrapOff && l !== 'cgroup-limits' ? 'sandbox.bubblewrap is off' : rows.find((r) => r.layer === l)?.detail ?? 'unavailable' }));
}

function runChecks(caps: HostCapabilities): Check[] {
  return [
    { name: 'node', ok: Number(process.versions.node.split('.')[0]) >= 20, detail: process.version },
    sqliteCheck(),
    { name: 'bubblewrap', ok: caps.bubblewrap.works, detail: caps.bubblewrap.works ? caps.bubblewrap.path! : caps.bubblewrap.reason ?? 'unavailable' },
    { name: 'seccomp', ok: Boolean(caps.seccomp?.works), detail: caps.seccomp?.works ? 'syscall filter loaded by bubblewrap' : caps.seccomp?.reason ?? 'unavailable' },
    { name: 'user namespaces', ok: caps.userNamespaces, detail: caps.userNamespaces ? 'enabled' : 'disabled' },
    {
      name: 'cgroups',
      ok: caps.cgroup.usable,
      detail: caps.cgroup.usable ? `${caps.cgroup.version}; limits: ${caps.cgroup.limitControllers.join(', ') || 'none'}; tree kill: yes` : caps.cgroup.reason ?? 'unavailable',
    },
    { name: 'rlimits (ulimit)', ok: true, detail: 'core dumps off, file size capped' },
    { name: 'ripgrep', ok: Boolean(caps.ripgrep), detail: caps.ripgrep ?? 'not installed: file_search uses the built-in engine' },
    { name: 'git', ok: Boolean(caps.git), detail: caps.git ?? 'not installed: git_* tools answer unavailable' },
  ];
}

function sqliteCheck(): Check {
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (f: string) => { prepare(s: string): { get(): { v: string } }; close(): void };
    const db = new Database(':memory:');
    const v = db.prepare('select sqlite_version() as v').get().v;
    db.close();
    return { name: 'sqlite', ok: true, detail: `better-sqlite3, SQLite ${v}` };
  } catch (err) {
    return { name: 'sqlite', ok: false, detail: (err as Error).message };
  }
}

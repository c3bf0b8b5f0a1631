// Neutralises a repository's own filter and textconv drivers. Git cannot switch drivers off
// wholesale from the command line (git 2.40's --attr-source is not everywhere), so the driver
// names are read from the repository's config (reading config runs nothing) and each one is
// overridden with an identity program (`cat`), which wins over .git/config.
import { spawnSync } from 'node:child_process';

const DRIVER_KEY = /^(filter|diff)\.(.+)\.(clean|smudge|process|required|textconv)$/i;
const QUERY = ['config', '--name-only', '--get-regexp', '^(filter|diff)\\.'];

/** `-c` overrides that turn every configured filter/textconv driver into a no-op. */
export function driverOverrides(git: string, cwd: string, env: Record<string, string>, globalArgs: string[] = []): string[] {
  const r = spawnSync(git, [...globalArgs, ...QUERY], { cwd, env, encoding: 'utf8', timeout: 3000, maxBuffer: 256 * 1024 });
  if (r.status !== 0 || typeof r.stdout !== 'string') return [];
  const filters = new Set<string>();
  const diffs = new Set<string>();
  for (const line of r.stdout.split('\n')) {
    const m = DRIVER_KEY.exec(line.trim());
    if (!m) continue;
    (m[1]!.toLowerCase() === 'filter' ? filters : diffs).add(m[2]!);
  }
  const out: string[] = [];
  for (const d of filters) out.push('-c', `filter.${d}.clean=cat`, '-c', `filter.${d}.smudge=cat`, '-c', `filter.${d}.process=`, '-c', `filter.${d}.required=false`);
  for (const d of diffs) out.push('-c', `diff.${d}.textconv=cat`);
  return out;
}

/** The global options of a git argv (everything before the subcommand), e.g. `-C dir`, `--git-dir=x`. */
export function gitGlobalArgs(args: string[]): string[] {
  const withValue = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    out.push(a);
    if (withValue.has(a) && i + 1 < args.length) out.push(args[++i]!);
  }
  return out;
}

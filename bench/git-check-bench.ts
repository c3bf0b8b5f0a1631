// The repository config check's cost per git adapter call, against the git call itself (medians).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkRepository } from '../src/data/git/repo-check/check-repository.js';
import { git, plainRepo } from '../test/helpers/git-repos.js';
import { interleave, median, type BenchRow } from './stats.js';

const run = promisify(execFile);
const FILES = 2000;

// A repository with FILES tracked files, a local include, remotes and one submodule.
function makeRepo(ws: string): string {
  const lib = plainRepo(join(ws, 'lib-src'), '');
  git(lib, 'commit', '-qam', 'two');
  const repo = plainRepo(join(ws, 'repo'), '');
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `d${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `d${d}`, `f${f}.txt`), `${d}/${f}\n`);
  }
  git(repo, 'remote', 'add', 'origin', 'https://example.com/a/b.git');
  writeFileSync(join(repo, '.git', 'extra.cfg'), '[user]\n\tname = x\n');
  git(repo, 'config', 'include.path', 'extra.cfg');
  git(repo, 'submodule', 'add', '-q', lib, 'lib');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'files');
  return repo;
}

async function ms(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Check alone vs `git status` alone, interleaved, 30 runs each. */
export async function benchGitCheck(): Promise<BenchRow[]> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'wb-bench-gitcheck-')));
  try {
    const repo = makeRepo(ws);
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_OPTIONAL_LOCKS: '0' };
    const status = () => run('git', ['status', '--porcelain=v2', '-z'], { cwd: repo, env, maxBuffer: 1 << 26 });
    const check = () => checkRepository({ cwd: repo }, { roots: [ws], homeDir: '/nonexistent-home', stateDir: '/nonexistent-state' });
    await check();
    await status();
    const [ours, base] = await interleave(30, () => ms(check), () => ms(status));
    const note = `${FILES} files, 1 submodule, 1 include; ours = check only, baseline = git status`;
    return [{ name: 'git config check per adapter call', ours: median(ours), baseline: median(base), unit: 'ms', note }];
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

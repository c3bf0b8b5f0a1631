// Real git repositories for the repository-check tests: ordinary ones and one per dangerous setting.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs the TEST's git (never the server's) with a fixed identity and no system/global config. */
export function git(cwd: string, ...args: string[]): string {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  return execFileSync('git', ['-c', 'protocol.file.allow=always', '-c', 'init.defaultBranch=main', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
}

/** A repo with one commit of a.txt (attributes naming drivers x) and an uncommitted change to it. */
export function plainRepo(dir: string, attributes = '* filter=x diff=x merge=x\n'): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  writeFileSync(join(dir, '.gitattributes'), attributes);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  writeFileSync(join(dir, 'a.txt'), 'hello\nchanged\n');
  return dir;
}

/** Appends raw text to a repository's .git/config (what a hostile clone ships). */
export function appendConfig(repo: string, text: string): void {
  appendFileSync(join(repo, '.git', 'config'), text);
}

/** Makes HEAD a commit carrying a (fake) PGP signature, so %GG / %G? runs the signature program. */
export function signedHead(repo: string, kind: 'PGP' | 'SSH' = 'PGP'): void {
  const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
  const parent = git(repo, 'rev-parse', 'HEAD').trim();
  const sig = `-----BEGIN ${kind} SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END ${kind} SIGNATURE-----`;
  const body = `tree ${tree}\nparent ${parent}\nauthor t <t@example.com> 1700000000 +0000\ncommitter t <t@example.com> 1700000000 +0000\ngpgsig ${sig}\n\nsigned\n`;
  const path = join(repo, '.git', 'signed-commit.txt');
  writeFileSync(path, body);
  const sha = git(repo, 'hash-object', '-t', 'commit', '-w', path).trim();
  git(repo, 'update-ref', 'HEAD', sha);
}

// The denylist, applied in every profile (SPEC §4 semantic layer): commands that destroy the
// system, power it off, format disks, kill every process or fetch-and-run code. It looks through
// wrappers (`sudo`, `timeout`, `env`, …) and into shell `-c` text.
import { posix } from 'node:path';
import { refuse } from './denial.js';
import { commandName } from './resolve-executable.js';
import { FETCHERS, isInterpreter, SHELLS } from './command-classes.js';
import { FETCH_AND_RUN, FORK_BOMBS, RAW_DISK_REDIRECT, splitShellText } from './shell-text.js';
import { unwrap } from './unwrap.js';
import type { PolicyContext } from './types.js';

const POWER = new Set(['shutdown', 'reboot', 'poweroff', 'halt', 'init', 'telinit', 'killall5', 'kexec', 'uadmin']);
const DISK_TOOLS = /^(?:mkfs|mke2fs|mkswap|wipefs|blkdiscard|mkdosfs|mklabel)/;
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'suspend-then-hibernate', 'soft-reboot', 'rescue', 'emergency']);
/** Block devices: writing to one destroys a file system. */
export const RAW_DISK = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|mapper\/|disk\/|sr\d|nbd\d|zd\d)/;
const DISK_WRITERS = new Set(['tee', 'cp', 'mv', 'shred', 'truncate', 'install', 'ln']);
const CRITICAL_OPS = new Set(['rm', 'mv', 'chmod', 'chown', 'chgrp', 'shred', 'find']);
const CRITICAL_WORDS = new Set(['/', '/*', '~', '~/', '~/*', '$HOME', '${HOME}', '$HOME/*', '.*', '/.*']);
const MAX_DEPTH = 4;

/** Throws when the simple command `argv` is on the denylist (looking through wrappers and `sh -c`). */
export function checkDenylist(argv: readonly string[], ctx: PolicyContext, depth = 0): void {
  if (depth > MAX_DEPTH || argv.length === 0) return;
  const name = commandName(argv[0]!);
  const args = argv.slice(1);
  if (ctx.extraDenied?.includes(name)) refuse('cmd.denied', `\`${name}\` is denied by policy.extra_denied_commands`);
  if (POWER.has(name)) refuse('cmd.denied', `\`${name}\` stops or restarts the machine; it is never allowed`);
  if (DISK_TOOLS.test(name)) refuse('cmd.denied', `\`${name}\` formats or erases a disk; it is never allowed`);
  if (name === 'systemctl' && args.some((a) => SYSTEMCTL_POWER.has(a))) refuse('cmd.denied', '`systemctl` power-state changes are never allowed');
  if (name === 'rm' && args.includes('--no-preserve-root')) refuse('cmd.denied', '`rm --no-preserve-root` is never allowed');
  if (CRITICAL_OPS.has(name)) checkCritical(name, args, ctx);
  if (name === 'dd') checkDd(args);
  if (DISK_WRITERS.has(name) && args.some((a) => RAW_DISK.test(a))) refuse('cmd.raw_disk', `\`${name}\` on a raw disk device destroys its file system; it is never allowed`);
  if (name === 'kill') checkKill(args);
  if (SHELLS.has(name) || name === 'su' || name === 'runuser') shellScripts(args, ctx, depth);
  if (isInterpreter(name)) checkShellText(args.join(' '), ctx, depth + 1, { forkOnly: true });
  const inner = unwrap(argv, name);
  if (inner) {
    for (const text of inner.shellText) checkShellText(text, ctx, depth + 1);
    checkDenylist(inner.inner, ctx, depth + 1);
  }
}

/** Throws for fetch-and-run pipelines: a downloader piped into a shell or interpreter. */
export function checkPipelineDenylist(stages: readonly (readonly string[])[]): void {
  let fetched = false;
  for (const stage of stages) {
    const names = innerNames(stage);
    if (fetched && names.some((n) => isInterpreter(n))) {
      refuse('cmd.fetch_and_run', 'piping a download into a shell or interpreter (fetch-and-run) is never allowed; download, review, then run');
    }
    if (names.some((n) => FETCHERS.has(n))) fetched = true;
  }
}

function innerNames(argv: readonly string[]): string[] {
  const out: string[] = [];
  let cur: readonly string[] | null = argv;
  for (let d = 0; cur && cur.length > 0 && d < MAX_DEPTH; d++) {
    const name = commandName(cur[0]!);
    out.push(name);
    cur = unwrap(cur, name)?.inner ?? null;
  }
  return out;
}

function normalizeTarget(a: string): string {
  if (!a.startsWith('/')) return a.length > 1 && a.endsWith('/') ? a.slice(0, -1) : a;
  const p = posix.normalize(a);
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

function checkCritical(name: string, args: readonly string[], ctx: PolicyContext): void {
  if (name === 'find' && !args.includes('-delete')) return;
  // mv's destination is only moved into; its sources are what it takes away.
  const targets = name === 'mv' ? args.slice(0, -1) : args;
  for (const a of targets) {
    if (a.startsWith('-') && a !== '-') continue;
    const p = normalizeTarget(a);
    const home = ctx.homeDir;
    const topLevel = p.startsWith('/') && p.lastIndexOf('/') === 0 && p.length > 1 && name !== 'find';
    const parentCritical = p.endsWith('/*') && (p === '/*' || p.lastIndexOf('/', p.length - 3) <= 0);
    if (CRITICAL_WORDS.has(p) || p === home || p === `${home}/*` || topLevel || parentCritical) {
      refuse('cmd.denied', `\`${name} ${a}\` would destroy or expose a system or home directory; it is never allowed`);
    }
  }
}

function checkDd(args: readonly string[]): void {
  for (const a of args) {
    if (!a.startsWith('of=')) continue;
    const target = a.slice(3);
    if (target.startsWith('/dev/') && !['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/zero'].includes(target)) {
      refuse('cmd.raw_disk', `\`dd ${a}\` writes to a device; it is never allowed`);
    }
  }
}

function checkKill(args: readonly string[]): void {
  let i = 0;
  if (args[0] === '-s' || args[0] === '-n') i = 2;
  else if (args.length > 1 && args[0]!.startsWith('-') && args[0] !== '--') i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-1' || a === '1') refuse('cmd.denied', '`kill` of every process (-1) or of init (1) is never allowed');
  }
}

function shellScripts(args: readonly string[], ctx: PolicyContext, depth: number): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') && !a.startsWith('--') && a.includes('c')) {
      const text = args[i + 1];
      if (text !== undefined) checkShellText(text, ctx, depth + 1);
    }
  }
}

/** Best-effort denylist over shell text (`shell:true`, `sh -c`): fork bombs, fetch-and-run, every simple command. */
export function checkShellText(text: string, ctx: PolicyContext, depth = 0, opts: { forkOnly?: boolean } = {}): void {
  if (FORK_BOMBS.some((re) => re.test(text))) refuse('cmd.fork_bomb', 'a fork bomb would exhaust the machine; it is never allowed');
  if (opts.forkOnly || depth > MAX_DEPTH) return;
  if (FETCH_AND_RUN.some((re) => re.test(text))) {
    refuse('cmd.fetch_and_run', 'running a download with a shell or interpreter (fetch-and-run) is never allowed; download, review, then run');
  }
  if (RAW_DISK_REDIRECT.test(text)) refuse('cmd.raw_disk', 'redirecting output to a raw disk device destroys its file system; it is never allowed');
  for (const pipeline of splitShellText(text)) {
    checkPipelineDenylist(pipeline);
    for (const stage of pipeline) checkDenylist(stage, ctx, depth + 1);
  }
}

// Tool definitions for the git adapters: git_status, git_log, git_diff (hardened git, read-only).
// Definitions load with zod only; each adapter loads on its first call.
import { z } from 'zod';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef } from '../tool.js';

const gitDiffMod = lazy(() => import('../../data/git/git-diff.js'));
const gitLogMod = lazy(() => import('../../data/git/git-log.js'));
const gitStatusMod = lazy(() => import('../../data/git/git-status.js'));

const RO = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const path = () => z.string().min(1).max(4096).describe('dir in the repo');
const ref = () => z.string().min(1).optional();

/** The git adapters. */
export function gitTools(deps: AppDeps): ToolDef[] {
  return [
    defineTool({
      name: 'git_status',
      description: 'Git branch, upstream, ahead/behind, detached HEAD and changed/untracked/conflicted files (porcelain v2, ≤1000 entries).',
      schemas: () => ({
        input: z.object({ path: path() }),
        output: {
          repo: z.string(), branch: z.string().nullable(), head: z.string().nullable(), upstream: z.string().nullable(),
          ahead: z.number(), behind: z.number(), detached: z.boolean(), truncated: z.boolean(),
          entries: z.array(z.object({ path: z.string(), orig_path: z.string().optional(), index: z.string(), worktree: z.string(), kind: z.string() })),
        },
      }),
      annotations: RO,
      handler: async (args, ctx) => {
        const { gitStatus } = await gitStatusMod();
        const data = await gitStatus(deps, args.path, ctx.signal);
        return { data: { ...data }, truncated: data.truncated };
      },
    }),
    defineTool({
      name: 'git_log',
      description: 'Recent commits (hash, author, email, date, subject) from HEAD or ref, newest first; limit ≤200.',
      schemas: () => ({
        input: z.object({ path: path(), limit: z.number().int().min(1).max(200).default(20), ref: ref().describe('Branch, tag, hash or range; default HEAD') }),
        output: {
          repo: z.string(), truncated: z.boolean(),
          commits: z.array(z.object({ hash: z.string(), author: z.string(), email: z.string(), date: z.string(), subject: z.string() })),
        },
      }),
      annotations: RO,
      handler: async (args, ctx) => {
        const { gitLog } = await gitLogMod();
        const data = await gitLog(deps, args, ctx.signal);
        return { data: { ...data }, truncated: data.truncated };
      },
    }),
    defineTool({
      name: 'git_diff',
      description: 'Unified diff of the working tree (or staged, or against ref), cut at max_bytes (≤1 MiB) with truncated set; files_changed counts all files.',
      schemas: () => ({
        input: z.object({
          path: path(),
          staged: z.boolean().default(false),
          ref: ref().describe('Compare against this commit/branch'),
          max_bytes: z.number().int().min(1024).max(1 << 20).default(65536),
        }),
        output: { repo: z.string(), diff: z.string(), truncated: z.boolean(), bytes: z.number(), files_changed: z.number() },
      }),
      annotations: RO,
      handler: async (args, ctx) => {
        const { gitDiff } = await gitDiffMod();
        const data = await gitDiff(deps, args, ctx.signal);
        return { data: { ...data }, truncated: data.truncated, text: data.diff };
      },
    }),
  ];
}

// Tool definitions for the file adapters: list_files, read_file, file_search, log_tail, disk_usage.
// Definitions load with zod only; each adapter loads on its first call.
import { z } from 'zod';
import type { SearchEngine } from '../../data/search/search-files.js';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef } from '../tool.js';

const diskUsageMod = lazy(() => import('../../data/files/disk-usage.js'));
const listFilesMod = lazy(() => import('../../data/files/list-files.js'));
const logTailMod = lazy(() => import('../../data/files/log-tail.js'));
const readFileMod = lazy(() => import('../../data/files/read-file.js'));
const searchMod = lazy(() => import('../../data/search/search-files.js'));

const RO = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const path = () => z.string().min(1).max(4096).describe('Absolute or relative to workspace root');
const hidden = () => z.boolean().default(false).describe('Include dot-files');
const skipped = () => z.boolean().default(false).describe('Include .git, node_modules, build dirs, .gitignored');
const int = () => z.number().int();

/** Options tests use to force one search engine; never exposed to the model. */
export interface FileToolsOptions {
  searchEngine?: SearchEngine;
}

/** The file adapters. */
export function fileTools(deps: AppDeps, options: FileToolsOptions = {}): ToolDef[] {
  return [listFilesTool(deps), readFileTool(deps), fileSearchTool(deps, options), logTailTool(deps), diskUsageTool(deps)];
}

function listFilesTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'list_files',
    description: 'List a directory (optionally recursive) with filters and sorting; ≤1000 per page, continue with next_cursor. Skips .git, node_modules, build dirs, .gitignored.',
    schemas: () => ({
      input: z.object({
        path: path(),
        pattern: z.string().optional().describe('Glob, e.g. *.log or src/**/*.ts'),
        recursive: z.boolean().default(false),
        max_depth: int().min(1).max(100).optional(),
        min_size_bytes: int().min(0).optional(),
        max_size_bytes: int().min(0).optional(),
        modified_after: z.string().optional().describe('ISO date'),
        type: z.enum(['file', 'dir', 'symlink', 'any']).default('any'),
        sort_by: z.enum(['name', 'size', 'modified']).default('name'),
        order: z.enum(['asc', 'desc']).default('asc'),
        follow_symlinks: z.boolean().default(false),
        include_hidden: hidden(),
        include_skipped: skipped(),
        limit: int().min(1).max(1000).default(200),
        cursor: z.string().optional(),
      }),
      output: {
        root: z.string(),
        files: z.array(z.object({ path: z.string(), type: z.string(), size_bytes: z.number(), modified: z.string(), is_executable: z.boolean() })),
        truncated: z.boolean(),
        partial: z.boolean(),
        next_cursor: z.string().nullable(),
        scanned: z.number(),
        notes: z.array(z.string()).optional().describe('What was not applied, e.g. an ignore file refused'),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { listFiles } = await listFilesMod();
      const data = await listFiles(deps, args);
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

function readFileTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'read_file',
    description: 'Read a text file window by bytes (offset, max_bytes ≤1 MiB) or lines (start_line, max_lines); continue at next_offset. Refuses binary. For log ends use log_tail.',
    schemas: () => ({
      input: z.object({
        path: path(),
        offset: int().min(0).optional().describe('Byte offset'),
        max_bytes: int().min(1).max(1 << 20).default(65536),
        start_line: int().min(1).optional().describe('1-based; line mode'),
        max_lines: int().min(1).max(100000).optional(),
      }),
      output: {
        path: z.string(),
        content: z.string(),
        encoding: z.string(),
        offset: z.number(),
        next_offset: z.number().nullable(),
        eof: z.boolean(),
        total_bytes: z.number(),
        lines: z.object({ start: z.number(), count: z.number() }).optional(),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { readFileWindow } = await readFileMod();
      const data = await readFileWindow(deps, args);
      return { data: { ...data }, truncated: !data.eof, text: data.content };
    },
  });
}

function fileSearchTool(deps: AppDeps, options: FileToolsOptions): ToolDef {
  return defineTool({
    name: 'file_search',
    description: 'Search file contents under a directory (literal unless regex, smart case). Up to max_results matches with context; truncated means more exist: narrow path/glob.',
    schemas: () => ({
      input: z.object({
        query: z.string().min(1).max(1000),
        regex: z.boolean().default(false),
        path: path(),
        glob: z.string().optional().describe('File filter, e.g. *.ts'),
        case_sensitive: z.boolean().optional().describe('Default: smart case'),
        context_lines: int().min(0).max(10).default(0),
        max_results: int().min(1).max(1000).default(100),
        time_budget_ms: int().min(100).max(30000).default(10000),
        include_hidden: hidden(),
        include_skipped: skipped(),
      }),
      output: {
        root: z.string(),
        matches: z.array(z.object({ path: z.string(), line: z.number(), column: z.number(), text: z.string(), before: z.array(z.string()), after: z.array(z.string()) })),
        truncated: z.boolean(),
        partial: z.boolean(),
        engine: z.enum(['ripgrep', 'builtin']),
        files_scanned: z.number().optional(),
        notes: z.array(z.string()).optional().describe('What was not applied or not verified'),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { searchFiles } = await searchMod();
      const data = await searchFiles(deps, args, options.searchEngine);
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

function logTailTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'log_tail',
    description: 'Last lines of a text/log file, read backwards from the end (fast on any size). With contains, only matching lines; scans at most 64 MiB then says partial.',
    schemas: () => ({
      input: z.object({
        path: path(),
        lines: int().min(1).max(1000).default(100),
        contains: z.string().min(1).optional().describe('Keep lines containing this text'),
      }),
      output: {
        path: z.string(),
        lines: z.array(z.string()),
        total_bytes: z.number(),
        truncated: z.boolean(),
        partial: z.boolean(),
        bytes_scanned: z.number(),
        encoding: z.string(),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { logTail } = await logTailMod();
      const data = await logTail(deps, args);
      return { data: { ...data }, truncated: data.truncated || data.partial, text: data.lines.join('\n') };
    },
  });
}

function diskUsageTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'disk_usage',
    description: 'Disk usage under a directory (like du -a -d N), biggest first; partial when the time budget ran out.',
    schemas: () => ({
      input: z.object({
        path: path(),
        max_depth: int().min(1).max(5).default(1),
        limit: int().min(1).max(1000).default(50),
        time_budget_ms: int().min(100).max(30000).default(10000),
      }),
      output: {
        root: z.string(),
        entries: z.array(z.object({ path: z.string(), size_bytes: z.number(), files: z.number() })),
        total_bytes: z.number(),
        total_files: z.number(),
        partial: z.boolean(),
        truncated: z.boolean(),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { diskUsage } = await diskUsageMod();
      const data = await diskUsage(deps, { ...args, include_skipped: true });
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

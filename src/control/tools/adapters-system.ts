// Tool definitions for host adapters: system_info, process_search, env_vars, network_check,
// package_list, service_status, time_convert.
// Definitions load with zod only; each adapter loads on its first call (time_convert's chrono-node is the heaviest).
import { z } from 'zod';
import { lazy } from '../../shared/lazy.js';
import type { AppDeps } from '../deps.js';
import { defineTool, type ToolDef } from '../tool.js';

const networkMod = lazy(() => import('../../data/network/network-check.js'));
const packagesMod = lazy(() => import('../../data/packages/package-list.js'));
const processesMod = lazy(() => import('../../data/processes/process-search.js'));
const servicesMod = lazy(() => import('../../data/services/service-status.js'));
const envMod = lazy(() => import('../../data/system/env-vars.js'));
const systemMod = lazy(() => import('../../data/system/system-info.js'));
const timeMod = lazy(() => import('../../data/time/time-convert.js'));

const RO = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const int = () => z.number().int();
const disk = () => z.object({ mount: z.string(), fs: z.string(), size_bytes: z.number(), used_bytes: z.number(), avail_bytes: z.number() });
const proc = () => z.object({
  pid: z.number(), ppid: z.number(), user: z.string(), comm: z.string(), cpu_percent: z.number(),
  mem_percent: z.number(), rss_bytes: z.number(), elapsed_s: z.number(), args: z.string(),
});

/** The host adapters. */
export function systemTools(deps: AppDeps): ToolDef[] {
  return [systemInfoTool(deps), processSearchTool(deps), envVarsTool(), networkCheckTool(deps), packageListTool(deps), serviceStatusTool(deps), timeConvertTool(deps)];
}

function systemInfoTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'system_info',
    description: 'Host facts: OS, kernel, CPU, load, uptime, memory, mounted disks, and the sandbox layers Workbench can use here.',
    schemas: () => ({
      input: z.object({}),
      output: {
        hostname: z.string(), os: z.string(), kernel: z.string(), arch: z.string(), cpu_count: z.number(), cpu_model: z.string(),
        load_avg: z.array(z.number()), uptime_s: z.number(), total_memory_bytes: z.number(), free_memory_bytes: z.number(),
        disks: z.array(disk()), sandbox: z.object({ layers: z.array(z.string()), bubblewrap: z.boolean(), cgroup: z.string() }),
      },
    }),
    annotations: RO,
    lane: 'status',
    handler: async () => ({ data: (await systemMod()).systemInfo(deps) }),
  });
}

function processSearchTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'process_search',
    description: 'Running processes (CPU% over ~200 ms, memory, args), filtered by name/pid/user, sorted by cpu or mem.',
    schemas: () => ({
      input: z.object({
        name: z.string().min(1).optional().describe('Substring of command name or args'),
        pid: int().min(1).optional(),
        user: z.string().min(1).optional(),
        sort_by: z.enum(['cpu', 'mem']).default('cpu'),
        limit: int().min(1).max(1000).default(50),
      }),
      output: { processes: z.array(proc()), total: z.number(), truncated: z.boolean() },
    }),
    annotations: RO,
    handler: async (args) => {
      const { processSearch } = await processesMod();
      const data = await processSearch(deps, args);
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

function envVarsTool(): ToolDef {
  return defineTool({
    name: 'env_vars',
    description: "Workbench server's environment variables, sorted; secret-looking ones (tokens, keys, passwords) show as ****.",
    schemas: () => ({
      input: z.object({ filter: z.string().min(1).optional().describe('Name substring, case-insensitive') }),
      output: { variables: z.array(z.object({ name: z.string(), value: z.string(), masked: z.boolean() })) },
    }),
    annotations: RO,
    lane: 'status',
    handler: async (args) => ({ data: { variables: (await envMod()).listEnv(process.env, args.filter) } }),
  });
}

function networkCheckTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'network_check',
    description: 'Resolve a host and optionally time a TCP connect to port. Non-loopback hosts need network permission in the config.',
    schemas: () => ({
      input: z.object({
        host: z.string().min(1),
        port: int().min(1).max(65535).optional(),
        timeout_ms: int().min(100).max(10000).default(3000),
      }),
      output: {
        host: z.string(), addresses: z.array(z.string()), dns_ms: z.number(), port: z.number().optional(),
        connected: z.boolean(), connect_ms: z.number().optional(), error: z.string().optional(),
      },
    }),
    annotations: { ...RO, openWorldHint: true },
    handler: async (args) => ({ data: await (await networkMod()).networkCheck(deps, args) }),
  });
}

function packageListTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'package_list',
    description: 'Installed packages (name, version) of dpkg/apt, brew, pip or global npm, sorted by name; page with next_cursor.',
    schemas: () => ({
      input: z.object({
        manager: z.enum(['auto', 'dpkg', 'apt', 'brew', 'pip', 'npm']).default('auto'),
        filter: z.string().min(1).optional().describe('Name substring'),
        limit: int().min(1).max(1000).default(200),
        cursor: z.string().optional(),
      }),
      output: {
        manager: z.string(), packages: z.array(z.object({ name: z.string(), version: z.string() })),
        total: z.number(), truncated: z.boolean(), next_cursor: z.string().nullable(),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { packageList } = await packagesMod();
      const data = await packageList(deps, args);
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

function serviceStatusTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'service_status',
    description: 'systemd unit states (load, active, sub); one unit by name or all. Unavailable where systemd is not running.',
    schemas: () => ({
      input: z.object({ name: z.string().min(1).optional().describe('Unit, e.g. nginx.service') }),
      output: {
        units: z.array(z.object({ name: z.string(), load: z.string(), active: z.string(), sub: z.string(), description: z.string() })),
        truncated: z.boolean(),
      },
    }),
    annotations: RO,
    handler: async (args) => {
      const { serviceStatus } = await servicesMod();
      const data = await serviceStatus(deps, args.name);
      return { data: { ...data }, truncated: data.truncated };
    },
  });
}

function timeConvertTool(deps: AppDeps): ToolDef {
  return defineTool({
    name: 'time_convert',
    description: 'Convert a time (ISO, epoch s/ms, or phrases like "3 hours ago", "tomorrow 9am") to a zone: ISO, epoch, offset. DST-aware.',
    schemas: () => ({
      input: z.object({
        time: z.string().min(1),
        from_tz: z.string().min(1).optional().describe('IANA zone of the input (default UTC)'),
        to_tz: z.string().min(1).default('UTC').describe('IANA zone, e.g. Europe/Paris'),
      }),
      output: { iso: z.string(), epoch_s: z.number(), epoch_ms: z.number(), zone: z.string(), offset: z.string(), input_interpretation: z.string() },
    }),
    annotations: RO,
    lane: 'status',
    handler: async (args) => {
      const { timeConvert } = await timeMod();
      return { data: timeConvert(args, deps.now()) };
    },
  });
}

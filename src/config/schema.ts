// The configuration contract: every key, its type and its default. Unknown keys are errors.
import { z } from 'zod';

const profile = z.enum(['read-only', 'workspace-write', 'full']);

const server = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8010),
    allow_remote: z.boolean().default(false),
  })
  .strict();

const workspace = z
  .object({
    roots: z.array(z.string().min(1)).default([]),
  })
  .strict();

const policy = z
  .object({
    profile: profile.default('read-only'),
    read_roots: z.array(z.string().min(1)).default(['/var/log']),
    allow_network: z.boolean().default(false),
    extra_allowed_commands: z.array(z.string().min(1)).default([]),
    extra_denied_commands: z.array(z.string().min(1)).default([]),
  })
  .strict();

const sandbox = z
  .object({
    require: z.boolean().default(false),
    bubblewrap: z.enum(['auto', 'off']).default('auto'),
    memory_max_mb: z.number().int().min(16).max(1048576).default(2048),
    pids_max: z.number().int().min(8).max(1000000).default(512),
    cpu_percent: z.number().int().min(1).max(100000).default(200),
    file_size_max_mb: z.number().int().min(1).max(1048576).default(4096),
  })
  .strict();

const control = z
  .object({
    max_inflight: z.number().int().min(1).max(1024).default(4),
    max_queue: z.number().int().min(0).max(100000).default(64),
    queue_wait_ms: z.number().int().min(0).max(60000).default(2000),
    status_lane_inflight: z.number().int().min(1).max(1024).default(32),
  })
  .strict();

const jobs = z
  .object({
    max_running: z.number().int().min(1).max(64).default(4),
    max_queued: z.number().int().min(0).max(100000).default(100),
    max_log_bytes: z.number().int().min(1024).default(256 * 1024 * 1024),
    retention_days: z.number().min(0).max(3650).default(7),
    max_total_log_bytes: z.number().int().min(1024 * 1024).default(4 * 1024 ** 3),
    min_free_disk_bytes: z.number().int().min(0).default(1024 ** 3),
  })
  .strict();

const audit = z
  .object({
    retention_days: z.number().min(0).max(3650).default(30),
  })
  .strict();

const scheduler = z
  .object({
    default_dry_run: z.boolean().default(false),
    lease_ms: z.number().int().min(1000).max(3600000).default(30000),
    max_active_tasks: z.number().int().min(1).max(100000).default(100),
    max_steps: z.number().int().min(1).max(10000).default(200),
    max_context_bytes: z.number().int().min(4096).max(1024 ** 3).default(1024 * 1024),
    retention_days: z.number().min(0).max(3650).default(30),
    max_concurrent_steps: z.number().int().min(1).max(256).default(2),
  })
  .strict();

const adapters = z
  .object({
    enabled: z.array(z.string().min(1)).optional(),
    skip_dirs: z
      .array(z.string().min(1))
      .default(['.git', 'node_modules', 'dist', 'build', 'target', '.cache', '__pycache__', '.venv', '.next', '.tox']),
  })
  .strict();

const log = z
  .object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    args: z.boolean().default(false),
  })
  .strict();

const secrets = z
  .object({
    /** Extra environment variables whose values are secrets (redacted like the API token), for names the built-in rule does not know. */
    env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')).default([]),
  })
  .strict();

const compat = z
  .object({
    ufo: z.boolean().default(false),
  })
  .strict();

export const ConfigSchema = z
  .object({
    server: server.prefault({}),
    workspace: workspace.prefault({}),
    policy: policy.prefault({}),
    sandbox: sandbox.prefault({}),
    control: control.prefault({}),
    jobs: jobs.prefault({}),
    audit: audit.prefault({}),
    scheduler: scheduler.prefault({}),
    adapters: adapters.prefault({}),
    log: log.prefault({}),
    compat: compat.prefault({}),
    secrets: secrets.prefault({}),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
export type ProfileName = z.infer<typeof profile>;

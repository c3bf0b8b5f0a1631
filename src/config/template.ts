// Renders `workbench config init`: every key with its default, commented.
import { stringify } from 'smol-toml';
import { ConfigSchema } from './schema.js';

const NOTES: Record<string, string> = {
  server: 'HTTP transport (workbench serve). Binding beyond loopback also needs allow_remote = true.',
  workspace: 'Workspace roots; empty = --root flags, else the roots the MCP client announces, else the start directory.',
  policy: 'profile: read-only | workspace-write | full. read_roots are readable in addition to the workspace.',
  sandbox: 'OS confinement. require = true refuses to run when a layer the profile promises (bubblewrap, seccomp, cgroup limits) is missing.',
  control: 'Backpressure for tool calls: beyond inflight + queue, calls are answered busy at once.',
  jobs: [
    'Durable jobs: concurrency, queue, per-stream log cap in bytes, retention of finished jobs.',
    'max_total_log_bytes bounds all job logs of the state directory together; min_free_disk_bytes is the',
    'free space its filesystem keeps. Beyond either, job_start is refused and a running job is stopped (too_large).',
  ].join('\n'),
  audit: 'Audit table (one row per tool call): rows older than retention_days are deleted at start-up and every minute.',
  scheduler: [
    'Task flows: default dry run, and the lease a runner holds on a step. Totals: at most max_active_tasks',
    'tasks pending, running or paused at once, max_steps steps per task, max_context_bytes of context per task',
    '(a saved result beyond it is kept by reference to its stored output). Ended tasks older than',
    'retention_days are deleted. max_concurrent_steps: task steps run in their own lane, never in the slots of [control].',
  ].join('\n'),
  adapters: 'enabled: list of tool names to expose (omit for all). skip_dirs are not walked by default.',
  log: 'Log level (stderr, JSON lines); args = true also logs raw tool arguments.',
  compat: 'ufo = true exposes execute_command/get_system_info (UFO Linux MCP server shapes).',
  secrets: 'env: names of variables whose values are secrets, redacted like the API token (names with TOKEN, PASSWORD, _KEY … are already).',
};

/** The commented default config file. */
export function renderDefaultConfig(): string {
  const defaults = ConfigSchema.parse({}) as Record<string, Record<string, unknown>>;
  const out = ['# Workbench configuration. Every key is shown with its default.', ''];
  for (const [section, values] of Object.entries(defaults)) {
    out.push(...(NOTES[section] ?? section).split('\n').map((l) => `# ${l}`));
    out.push(stringify({ [section]: values }).trim());
    if (section === 'adapters') out.push('# enabled = ["run_command", "read_file", "list_files"]');
    out.push('');
  }
  return out.join('\n');
}

// Which tools this server exposes: every family, filtered by [adapters] enabled and [compat].
import type { AppDeps } from './deps.js';
import type { ToolDef } from './tool.js';
import { commandTools } from './tools/commands.js';
import { ufoTools } from './tools/ufo.js'; // issue 6: [compat] ufo
import { jobTools } from './tools/jobs.js';
import { taskTools } from './tools/tasks.js';
import { fileTools } from './tools/adapters-files.js';
import { gitTools } from './tools/adapters-git.js';
import { systemTools } from './tools/adapters-system.js';

type Family = (deps: AppDeps) => ToolDef[];

const FAMILIES: Family[] = [commandTools, jobTools, taskTools, (d) => fileTools(d), gitTools, systemTools, ufoTools];

/** Builds the enabled tool definitions once per process. */
export function buildTools(deps: AppDeps): ToolDef[] {
  return deps.service('tools', () => {
    const all = FAMILIES.flatMap((f) => f(deps));
    const enabled = deps.config.adapters.enabled;
    if (!enabled) return all;
    const unknown = enabled.filter((n) => !all.some((t) => t.name === n));
    if (unknown.length > 0) deps.logger.warn({ event: 'config_unknown_tools', tools: unknown });
    return all.filter((t) => enabled.includes(t.name));
  });
}

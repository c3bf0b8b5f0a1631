// Which tools this server exposes: every family, filtered by [adapters] enabled and [compat].
import type { AppDeps } from './deps.js';
import type { ToolDef } from './tool.js';
import { commandTools } from './tools/commands.js';

type Family = (deps: AppDeps) => ToolDef[];

const FAMILIES: Family[] = [commandTools];

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

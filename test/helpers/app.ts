// An in-process Workbench app over temp dirs with the full tool registry, driven through invokeTool.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ConfigSchema } from '../../src/config/schema.js';
import { createApp } from '../../src/control/app.js';
import { invokeTool } from '../../src/control/invoke.js';
import type { Profile } from '../../src/policy/types.js';

export type Structured = Record<string, any>;

/** Builds base/{ws,state,outside}; `call(tool, args)` returns structuredContent plus isError and the text. */
export function testApp(profile: Profile, configOverrides: Record<string, unknown> = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-app-')));
  const ws = join(base, 'ws');
  const state = join(base, 'state');
  const outside = join(base, 'outside');
  for (const d of [ws, state, outside]) mkdirSync(d);
  const config = ConfigSchema.parse({ log: { level: 'silent' }, ...configOverrides });
  const runtime = { profile, workspaceRoots: [ws], readRoots: [ws], writeRoots: profile === 'read-only' ? [] : profile === 'full' ? ['/'] : [ws], stateDir: state, homeDir: join(base, 'home') };
  const app = createApp(config, runtime, pino({ level: 'silent' }));
  const call = async (name: string, args: unknown): Promise<{ s: Structured; isError: boolean; text: string }> => {
    const def = app.tools.find((t) => t.name === name);
    if (!def) throw new Error(`no tool ${name}`);
    const r = await invokeTool(app.deps, app.gates, def, args, { transport: 'memory' });
    return { s: r.structuredContent as Structured, isError: r.isError, text: r.content[0]?.text ?? '' };
  };
  const close = async () => {
    await app.deps.close();
    rmSync(base, { recursive: true, force: true });
  };
  return { app, base, ws, state, outside, call, close };
}

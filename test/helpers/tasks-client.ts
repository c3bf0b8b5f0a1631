// Drives task tools through the SDK's real MCP Client against the built `workbench stdio`.
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio, type ServerSetup } from './server-process.js';
import { waitFor } from './wait.js';

export interface TaskClient {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<{ s: Record<string, any>; isError: boolean }>;
  createTask(args: Record<string, unknown>): Promise<string>;
  waitTask(id: string, statuses?: string[], ms?: number): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** Spawns the server and connects; `close()` ends the client and the server process. */
export async function taskClient(setup: ServerSetup): Promise<TaskClient> {
  const conn = await connectStdio(setup);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await conn.client.callTool({ name, arguments: args })) as { structuredContent?: Record<string, any>; isError?: boolean };
    return { s: r.structuredContent ?? {}, isError: r.isError === true };
  };
  const createTask = async (args: Record<string, unknown>) => {
    const r = await call('task_create', args);
    if (r.isError || typeof r.s.task_id !== 'string') throw new Error(`task_create failed: ${JSON.stringify(r.s)}`);
    return r.s.task_id as string;
  };
  const waitTask = (id: string, statuses = ['completed', 'paused', 'failed', 'cancelled'], ms = 30_000) =>
    waitFor(async () => {
      const { s } = await call('task_status', { task_id: id });
      return statuses.includes(s.status) ? s : undefined;
    }, ms, `task ${id} to reach ${statuses.join('|')}`);
  return { client: conn.client, call, createTask, waitTask, close: conn.close };
}

// Baseline for the cold-start benchmark: the smallest useful SDK stdio server (one echo tool).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'min', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});

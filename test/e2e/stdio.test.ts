// End to end over stdio: the built `workbench stdio` driven by the SDK's Client.
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio } from '../helpers/server-process.js';
import { tempDirs, type TempDirs } from '../helpers/workspace.js';
import * as cases from './run-command.shared.js';

describe('workbench stdio (workspace-write)', () => {
  let dirs: TempDirs;
  let conn: Awaited<ReturnType<typeof connectStdio>>;
  let client: Client;
  before(async () => {
    dirs = tempDirs();
    conn = await connectStdio({ workspace: dirs.workspace, state: dirs.state, profile: 'workspace-write' });
    client = conn.client;
  });
  after(async () => {
    await conn?.close();
    dirs?.cleanup();
  });

  test('tools/list: every tool has an outputSchema and the list is small', () => cases.listHasOutputSchemas(client));
  test('echo', () => cases.echoWorks(client, dirs.workspace));
  test('non-zero exit is data, not a tool error', () => cases.nonZeroExitIsData(client, dirs.workspace));
  test('missing executable is not_found', () => cases.missingExecutable(client, dirs.workspace));
  test('cwd outside the roots is path_denied', () => cases.cwdOutsideRoots(client));
  test('200 MB of output is capped, the total is counted', () => cases.hugeOutputIsCapped(client, dirs.workspace));
  test('timeout kills the whole tree, setsid grandchild included', () => cases.timeoutKillsTree(client, dirs.workspace));
  test('timeout_ms over 30000 is refused with a pointer to job_start', () => cases.longTimeoutRefused(client, dirs.workspace));
  test('client-side cancellation kills the tree', () => cases.cancellationKillsTree(client, dirs.workspace));
  test('schema-rejected arguments are an invalid_params envelope naming the field', () => cases.invalidParamsNameTheField(client));
});

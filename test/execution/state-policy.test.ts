// State keeps its policy (SPEC §3.2, §3.4, §4.1): real server processes sharing one state directory.
// A task or queued job is only ever run by a server whose policy (profile, roots, network, sandbox)
// equals the one it was created under; others report on it and say what it waits for.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { createApp } from '../../src/control/app.js';
import { serverPolicy } from '../../src/control/server-policy.js';
import { invokeTool } from '../../src/control/invoke.js';
import { createTask } from '../../src/execution/scheduler/create-task.js';
import { createTaskStore, toolMap, type TaskStore } from '../../src/execution/scheduler/env.js';
import type { Profile } from '../../src/policy/types.js';
import { openDb } from '../../src/store/db.js';
import { createJobsRepo, type JobsRepo } from '../../src/store/jobs-repo.js';
import { policyRuntime } from '../helpers/policy-runtime.js';
import { testConfig } from '../helpers/tasks-app.js';
import { alive, waitFor } from '../helpers/wait.js';
import { tempDirs } from '../helpers/workspace.js';

const CHILD = fileURLToPath(new URL('../helpers/policy-server-child.js', import.meta.url));
const POLICY = { policy: { extra_allowed_commands: ['sleep'] } };
const CANARY = 'canary-ran-9f2c41';

interface ServerInput {
  state: string;
  workspace: string;
  profile: Profile;
  calls?: Array<{ tool: string; args: unknown }>;
  /** jobs.max_running (not part of the policy): 1 makes the second job of the creating server wait. */
  maxRunning?: number;
}

let cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** Starts a real server process; resolves with the structured results of its calls. */
async function startServer(input: ServerInput): Promise<{ child: ChildProcess; results: Array<Record<string, any>> }> {
  const config = { ...POLICY, jobs: { max_running: input.maxRunning ?? 4 } };
  const child = spawn(process.execPath, [CHILD, JSON.stringify({ ...input, config })], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => void (alive(child.pid!) && child.kill('SIGKILL')));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const results = await waitFor(() => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]!) as Array<Record<string, any>>) : undefined), 20_000, 'server start');
  return { child, results };
}

async function killServer(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await waitFor(() => child.exitCode !== null || child.signalCode !== null, 5000, 'server exit');
}

/** An in-process server of a policy, to call tools as that server would answer them. */
function viewer(state: string, workspace: string, profile: Profile) {
  const app = createApp(testConfig(POLICY), policyRuntime(state, workspace, profile), pino({ level: 'silent' }));
  cleanup.push(() => app.deps.close());
  const call = async (tool: string, args: unknown) => {
    const res = await invokeTool(app.deps, app.gates, app.tools.find((t) => t.name === tool)!, args, { transport: 'memory' });
    return res.structuredContent as Record<string, any>;
  };
  return { app, call };
}

/** The store of a state dir, opened by the test itself. */
function openStore(state: string): TaskStore & { jobs: JobsRepo } {
  const db = openDb(join(state, 'workbench.db'));
  cleanup.push(() => void db.close());
  return { ...createTaskStore(db), jobs: createJobsRepo(db) };
}

/** Kills what is left of every job of a state dir (supervisors and recorded command pids), by pid. */
function killJobsOf(state: string): void {
  const root = join(state, 'jobs');
  if (!existsSync(root)) return;
  for (const id of readdirSync(root)) {
    try {
      const info = JSON.parse(readFileSync(join(root, id, 'supervisor.json'), 'utf8')) as { supPid: number; procs: Array<{ pid: number }> };
      for (const pid of [info.supPid, ...info.procs.map((p) => p.pid)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      /* no supervisor recorded */
    }
  }
}

function stdoutOf(state: string, jobId: string): string {
  const file = join(state, 'jobs', jobId, 'stdout.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

const cmd = (...command: string[]) => ({ action: 'run_command', parameters: { command } });

describe('state keeps its policy: two servers on one state directory', () => {
  it('a read-only server\'s task (with a touch step) and queued job are never run by a workspace-write server; a read-only server runs them, and refuses the touch', async () => {
    const dirs = tempDirs('wb-policy-ro-');
    cleanup.push(() => dirs.cleanup());
    cleanup.push(() => killJobsOf(dirs.state));
    const { workspace: ws, state } = dirs;
    const roMarker = join(ws, 'ro-task-marker');
    const store = openStore(state);
    // The read-only server: a task whose second step is a touch its policy refuses, a running job, and a queued one behind it.
    const ro = await startServer({
      state, workspace: ws, profile: 'read-only', maxRunning: 1,
      calls: [
        { tool: 'job_start', args: { command: ['sleep', '300'] } },
        { tool: 'job_start', args: { command: ['echo', CANARY] } },
        { tool: 'task_create', args: { steps: [cmd('sleep', '3'), cmd('touch', roMarker)] } },
      ],
    });
    const [blocker, queued, task] = ro.results as [{ job_id: string }, { job_id: string; status: string }, { task_id: string }];
    assert.equal(queued.status, 'queued', 'max_running 1: the second job waits behind the first');
    await waitFor(() => store.steps.get(`${task.task_id}.1`)?.status === 'executing', 15_000, 'step 1 executing in the read-only server');
    await killServer(ro.child);

    // A workspace-write server on the same state dir and roots runs its own work, and nothing of the read-only server's.
    const wwMarker = join(ws, 'ww-task-marker');
    const wwJobMarker = join(ws, 'ww-job-marker');
    await startServer({
      state, workspace: ws, profile: 'workspace-write',
      calls: [
        { tool: 'job_start', args: { command: ['touch', wwJobMarker] } },
        { tool: 'task_create', args: { steps: [cmd('sleep', '6'), cmd('touch', wwMarker)] } },
      ],
    });
    await waitFor(() => existsSync(wwMarker) && existsSync(wwJobMarker), 30_000, 'the workspace-write server to finish its own task and job');
    assert.equal(existsSync(roMarker), false, 'the read-only task\'s touch never ran');
    const step1 = store.steps.get(`${task.task_id}.1`)!;
    assert.equal(step1.status, 'executing', 'the workspace-write server did not recover the read-only step');
    assert.equal(step1.attempts, 1);
    assert.equal(store.steps.get(`${task.task_id}.2`)!.status, 'pending');
    assert.equal(store.jobs.get(queued.job_id)!.status, 'queued', 'the read-only queued job was not started');
    assert.equal(stdoutOf(state, queued.job_id).includes(CANARY), false);

    // Reporting works for any policy and says what the work waits for; content and steering across policies are refused.
    const ww = viewer(state, ws, 'workspace-write');
    const listed = (await ww.call('task_list', {})).tasks.find((t: { task_id: string }) => t.task_id === task.task_id);
    assert.match(listed.status_reason, /^waiting_for_policy: .*profile read-only/);
    // Its context and step results are the read-only server's content: refused, naming its status.
    const ts = await ww.call('task_status', { task_id: task.task_id });
    assert.equal(ts.rule, 'task.other_policy');
    assert.match(ts.error, /waiting_for_policy: .*profile read-only/);
    const js = await ww.call('job_status', { job_id: queued.job_id });
    assert.equal(js.status, 'queued');
    assert.match(js.note, /^waiting_for_policy: .*profile read-only/);
    const input = await ww.call('job_input', { job_id: blocker.job_id, data: 'x' });
    assert.equal(input.rule, 'job.other_policy');

    // Back under read-only: the task resumes there and its touch is refused by the recorded policy; the queued job runs.
    await startServer({ state, workspace: ws, profile: 'read-only', calls: [{ tool: 'job_cancel', args: { job_id: blocker.job_id, grace_ms: 0 } }] });
    const paused = await waitFor(() => {
      const t = store.tasks.get(task.task_id)!;
      return t.status === 'paused' || t.status === 'failed' || t.status === 'completed' ? t : undefined;
    }, 30_000, 'the read-only server to run the task');
    assert.equal(paused.status, 'paused');
    const step2 = store.steps.get(`${task.task_id}.2`)!;
    assert.equal(step2.status, 'failed');
    assert.match(step2.error ?? '', /touch/);
    assert.equal(existsSync(roMarker), false, 'the touch was refused at run time');
    await waitFor(() => store.jobs.get(queued.job_id)!.status === 'succeeded', 20_000, 'the queued job to run under read-only');
    assert.ok(stdoutOf(state, queued.job_id).includes(CANARY));
  });

  it('different roots: a workspace-write task and queued job of root A are never run by a server on root B nor by a read-only one; the root-A server runs them in A', async () => {
    const dirs = tempDirs('wb-policy-roots-');
    cleanup.push(() => dirs.cleanup());
    cleanup.push(() => killJobsOf(dirs.state));
    const { workspace: wsA, state } = dirs;
    const wsB = join(dirs.root, 'workspace-b');
    mkdirSync(wsB);
    const store = openStore(state);
    // Root A's server: a running job and a queued touch (relative: it lands in the job's cwd, the first root).
    const a = await startServer({
      state, workspace: wsA, profile: 'workspace-write', maxRunning: 1,
      calls: [
        { tool: 'job_start', args: { command: ['sleep', '300'] } },
        { tool: 'job_start', args: { command: ['touch', 'job-marker'] } },
      ],
    });
    const [blocker, queued] = a.results as [{ job_id: string }, { job_id: string; status: string }];
    assert.equal(queued.status, 'queued');
    await killServer(a.child);
    // A task root A's server created and recorded before its runner claimed it: `touch task-marker` in the first root.
    const creator = viewer(state, wsA, 'workspace-write');
    const taskStore = createTaskStore(creator.app.deps.store().db);
    const { buildTools } = await import('../../src/control/registry.js');
    const task = createTask(taskStore, toolMap(buildTools(creator.app.deps)), { steps: [cmd('touch', 'task-marker')], dryRun: false, policy: serverPolicy(creator.app.deps) });

    // Root B's server and a read-only server on root A run their own work only.
    await startServer({ state, workspace: wsB, profile: 'workspace-write', calls: [{ tool: 'job_start', args: { command: ['touch', 'own-job'] } }, { tool: 'task_create', args: { steps: [cmd('touch', 'own-task')] } }] });
    const ro = await startServer({ state, workspace: wsA, profile: 'read-only', calls: [{ tool: 'task_create', args: { steps: [cmd('ls')] } }] });
    const roTask = (ro.results[0] as { task_id: string }).task_id;
    await waitFor(() => existsSync(join(wsB, 'own-job')) && existsSync(join(wsB, 'own-task')), 20_000, 'root B\'s own task and job');
    await waitFor(() => store.tasks.get(roTask)?.status === 'completed', 20_000, 'the read-only server\'s own task');
    for (const ws of [wsA, wsB]) {
      assert.equal(existsSync(join(ws, 'task-marker')), false, `no task-marker in ${ws}`);
      assert.equal(existsSync(join(ws, 'job-marker')), false, `no job-marker in ${ws}`);
    }
    const step = store.steps.get(`${task.id}.1`)!;
    assert.equal(step.status, 'pending');
    assert.equal(step.attempts, 0, 'neither server claimed the step');
    assert.equal(store.jobs.get(queued.job_id)!.status, 'queued');
    const b = viewer(state, wsB, 'workspace-write');
    const listed = (await b.call('task_list', {})).tasks.find((t: { task_id: string }) => t.task_id === task.id);
    assert.match(listed.status_reason, /^waiting_for_policy: .*roots /);
    assert.equal((await b.call('task_status', { task_id: task.id })).rule, 'task.other_policy');
    assert.equal((await b.call('task_confirm', { task_id: task.id })).rule, 'task.other_policy');
    assert.equal((await b.call('task_resume', { task_id: task.id })).rule, 'task.other_policy');

    // Root A's server again: the task and the job run there.
    await startServer({ state, workspace: wsA, profile: 'workspace-write', calls: [{ tool: 'job_cancel', args: { job_id: blocker.job_id, grace_ms: 0 } }] });
    await waitFor(() => store.tasks.get(task.id)!.status === 'completed', 20_000, 'root A\'s task to complete');
    await waitFor(() => store.jobs.get(queued.job_id)!.status === 'succeeded', 20_000, 'root A\'s job to run');
    assert.ok(existsSync(join(wsA, 'task-marker')) && existsSync(join(wsA, 'job-marker')));
    assert.equal(existsSync(join(wsB, 'task-marker')), false);
  });
});

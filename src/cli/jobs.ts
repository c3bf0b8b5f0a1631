// `workbench jobs ls|show|logs|cancel`: reads the same store as the server, with or without one running.
import type { Command } from 'commander';
import { JOB_STATUSES } from '../execution/jobs/types.js';
import { withGlobalFlags } from './flags.js';
import type { JobFlags } from './jobs-action.js';

const actions = () => import('./jobs-action.js');

/** Registers `workbench jobs …`; the job store loads only when a subcommand runs. */
export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('inspect and cancel durable jobs (works with or without a running server)');
  withGlobalFlags(jobs.command('ls').description('list jobs, newest first'))
    .option('--status <status>', JOB_STATUSES.join(' | '))
    .option('--limit <n>', 'how many', '50')
    .option('--json', 'print JSON')
    .action(async (flags: JobFlags & { status?: string; limit: string }) => (await actions()).listJobs(flags));
  withGlobalFlags(jobs.command('show <id>').description('one job in detail'))
    .option('--json', 'print JSON')
    .action(async (id: string, flags: JobFlags) => (await actions()).showJob(id, flags));
  withGlobalFlags(jobs.command('logs <id>').description('print a job log (on a terminal, control sequences are shown escaped)'))
    .option('--stream <stream>', 'stdout | stderr | combined', 'combined')
    .option('-f, --follow', 'keep printing until the job ends')
    .option('--raw', 'print the output as it is, control sequences included (as when piped)')
    .action(async (id: string, flags: JobFlags & { stream: string; follow?: boolean; raw?: boolean }) => (await actions()).printJobLog(id, flags));
  withGlobalFlags(jobs.command('cancel <id>').description('TERM the job tree, KILL after the grace'))
    .option('--grace <ms>', 'grace before SIGKILL', '3000')
    .action(async (id: string, flags: JobFlags & { grace: string }) => (await actions()).cancelJobCommand(id, flags));
}

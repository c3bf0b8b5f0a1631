// Developer tools whose only read-only use is printing their version.
import { refuse } from '../denial.js';
import { isInterpreter } from '../command-classes.js';
import { NO_PATHS, type ArgRule } from './types.js';

const VERSION_ARGS = new Set(['--version', '-v', '-V', 'version', '-version']);

/** Tools allowed with a single version argument in read-only. */
export const VERSION_ONLY: readonly string[] = [
  'node', 'python3', 'python', 'npm', 'npx', 'pnpm', 'yarn', 'go', 'cargo', 'rustc', 'rustup', 'java', 'javac', 'pip',
  'pip3', 'gcc', 'g++', 'cc', 'clang', 'deno', 'bun', 'ruby', 'perl', 'php', 'dotnet', 'tsc', 'cmake',
];

/** Allows `TOOL --version` (and -v/-V/version/-version); anything else is refused. */
export const versionOnlyRule: ArgRule = ({ cmd, args }) => {
  if (args.length === 1 && VERSION_ARGS.has(args[0]!)) return NO_PATHS;
  if (isInterpreter(cmd)) {
    refuse('cmd.interpreter', `\`${cmd}\` runs code; in read-only only \`${cmd} --version\` is allowed (workspace-write allows interpreters inside the sandbox)`);
  }
  refuse('arg.version_only', `in read-only only \`${cmd} --version\` is allowed; other ${cmd} commands need workspace-write`);
};

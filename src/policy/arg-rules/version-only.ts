// Developer tools whose only read-only use is printing their version.
//
// Each tool accepts only the spellings that print the version and exit. A `version` subcommand is
// not a flag: `npm version`/`yarn version` bump the version and run lifecycle scripts. Left out on
// purpose: yarn and pnpm (and corepack shims) read .yarnrc.yml `yarnPath`/package.json
// `packageManager` from the workspace and run or fetch that program even for --version; rustup
// proxies (cargo, rustc, rustup) honour rust-toolchain.toml `path`, a toolchain in the workspace;
// dotnet resolves the SDK through the workspace's global.json. `ruby -v` and `python3 -v` turn on
// verbose mode and then run stdin as a program, so only their real version flags are accepted.
import { refuse } from '../denial.js';
import { isInterpreter } from '../command-classes.js';
import { NO_PATHS, type ArgRule } from './types.js';

/** Tool → the arguments that print its version (and do nothing else). */
const VERSION_ARGS: Readonly<Record<string, readonly string[]>> = {
  node: ['--version', '-v'], python3: ['--version', '-V'], python: ['--version', '-V'], npm: ['--version', '-v'],
  npx: ['--version', '-v'], go: ['version'], java: ['-version', '--version'], javac: ['-version', '--version'],
  pip: ['--version', '-V'], pip3: ['--version', '-V'], gcc: ['--version'], 'g++': ['--version'], cc: ['--version'],
  clang: ['--version'], deno: ['--version', '-V'], bun: ['--version'], ruby: ['--version'], perl: ['--version', '-v'],
  php: ['--version', '-v'], tsc: ['--version', '-v'], cmake: ['--version'],
};

/** Tools allowed with a single version argument in read-only. */
export const VERSION_ONLY: readonly string[] = Object.keys(VERSION_ARGS);

/** Allows `TOOL --version` (or the tool's own version spelling); anything else is refused. */
export const versionOnlyRule: ArgRule = ({ cmd, args }) => {
  if (args.length === 1 && Object.hasOwn(VERSION_ARGS, cmd) && VERSION_ARGS[cmd]!.includes(args[0]!)) return NO_PATHS;
  if (isInterpreter(cmd)) {
    refuse('cmd.interpreter', `\`${cmd}\` runs code; in read-only only \`${cmd} --version\` is allowed (workspace-write allows interpreters inside the sandbox)`);
  }
  refuse('arg.version_only', `in read-only only \`${cmd} ${VERSION_ARGS[cmd]?.[0] ?? '--version'}\` is allowed; other ${cmd} commands need workspace-write`);
};

// Names of commands that run other programs (wrappers, shells, interpreters) or need a terminal.

/** Shells: refused in read-only (`cmd.interpreter`); their -c text is denylist-checked elsewhere. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'pdksh', 'fish', 'csh', 'tcsh', 'ash', 'yash', 'rbash', 'elvish', 'nu', 'xonsh']);

const INTERPRETER_NAMES = new Set([
  'perl', 'ruby', 'node', 'nodejs', 'deno', 'bun', 'php', 'lua', 'luajit', 'tclsh', 'wish', 'Rscript', 'R', 'julia',
  'osascript', 'pwsh', 'irb', 'ipython', 'jshell', 'groovy', 'scala', 'guile', 'racket', 'sbcl', 'ghci', 'runghc',
  'erl', 'escript', 'elixir', 'iex', 'jrunscript', 'jjs', 'tsx', 'ts-node', 'pypy', 'pypy3', 'gdb', 'expect',
]);
const VERSIONED = /^(?:python|pypy|perl|ruby|php|lua|node)[0-9.]*$/;

/** True for language interpreters (python3.11, perl5.36, node, …). */
export function isInterpreter(name: string): boolean {
  return SHELLS.has(name) || INTERPRETER_NAMES.has(name) || VERSIONED.test(name);
}

/** Programs whose job is to run another program. */
export const WRAPPERS = new Set([
  'env', 'nice', 'renice', 'timeout', 'nohup', 'stdbuf', 'setsid', 'sudo', 'su', 'doas', 'pkexec', 'runuser', 'chroot',
  'unshare', 'nsenter', 'busybox', 'toybox', 'xargs', 'ionice', 'chrt', 'taskset', 'flock', 'strace', 'ltrace',
  'valgrind', 'time', 'watch', 'script', 'parallel', 'systemd-run', 'firejail', 'bwrap', 'exec', 'command', 'builtin',
  'eval', 'tmux', 'screen', 'setpriv', 'capsh', 'numactl', 'cgexec', 'faketime', 'fakeroot', 'proot', 'rlwrap',
  'unbuffer', 'prlimit', 'catchsegv', 'dbus-run-session', 'xvfb-run', 'sg', 'newgrp', 'nsjail', 'start-stop-daemon',
  'ssh', 'sshpass', 'make', 'npx', 'watchexec', 'entr',
]);

/** Pagers, editors and full-screen tools: they need a terminal (and pagers can run commands). */
export const INTERACTIVE = new Set([
  'less', 'more', 'most', 'pg', 'vi', 'vim', 'nvim', 'view', 'vimdiff', 'nano', 'pico', 'emacs', 'emacsclient', 'ed',
  'ex', 'man', 'info', 'joe', 'mc', 'htop', 'atop', 'btop', 'iftop', 'nethogs', 'mutt', 'ranger', 'nnn', 'tig', 'ncdu',
]);

/** Programs that download: piping them into an interpreter is fetch-and-run. */
export const FETCHERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-request', 'GET', 'lynx', 'links', 'nc', 'ncat', 'socat', 'ftp', 'tftp']);

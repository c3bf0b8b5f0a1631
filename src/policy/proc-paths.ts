// Which process a /proc (or /dev/fd) path names, for the viewer that will open it. A command runs
// in its own sandbox: its /proc/self is itself. An adapter runs inside the server: its /proc/self,
// /proc/mounts, /proc/net, /dev/stdin and /dev/fd are the SERVER's own process (environment,
// descriptors, command line), which no agent request may read. Pure: pids come from the context.

/** Who opens the path: a sandboxed command, or an adapter inside the server process. */
export type Viewer = 'command' | 'adapter';

const PID = /^\/proc\/(\d+)(?:\/|$)/;
const LEXICAL_SELF = /^\/proc\/(?:self|thread-self)(?:\/|$)/;
/** Names of the opener's own descriptors, under /dev. */
const DEV_SELF = /^\/dev\/(?:stdin|stdout|stderr|fd)(?:\/|$)/;

function pidOf(p: string): number | null {
  const m = PID.exec(p);
  return m === null ? null : Number(m[1]);
}

/**
 * True when `abs` (as given, normalized) names the opener's own process without naming a pid:
 * /proc/self, /proc/thread-self, or a /proc entry that resolves into a pid directory (/proc/mounts
 * and /proc/net are links to self/…), or the opener's descriptors under /dev.
 */
export function namesOwnProcess(abs: string, real: string): boolean {
  if (LEXICAL_SELF.test(abs) || DEV_SELF.test(abs)) return true;
  return abs.startsWith('/proc/') && pidOf(abs) === null && pidOf(real) !== null;
}

/**
 * True when the path, opened by `viewer`, would reach the server's own process: for an adapter,
 * any alias of its own process; for both, a pid directory of the server (or of one of its threads,
 * `isServer` knows) named outright or reached through a link that is not a command's own /proc/self.
 */
export function reachesServerProcess(abs: string, real: string, viewer: Viewer, isServer: (pid: number) => boolean): boolean {
  const own = namesOwnProcess(abs, real);
  if (viewer === 'adapter' && own) return true;
  const named = pidOf(abs);
  if (named !== null && isServer(named)) return true;
  const reached = pidOf(real);
  return !own && reached !== null && isServer(reached);
}

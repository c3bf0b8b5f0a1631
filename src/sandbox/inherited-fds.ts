// Commands and jobs get stdin, stdout, stderr and the descriptors Workbench opens for them, nothing
// else. Node opens its own descriptors close-on-exec, but a descriptor the server inherited without
// that flag (a directory handed down by a parent, say) would pass into every child, bubblewrap
// does not close it, and a confined command could then reach outside its roots through
// /proc/self/fd/N. Node cannot set FD_CLOEXEC, so at start-up such descriptors are closed.
import { closeSync, readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** Closes every descriptor above 2 that is not close-on-exec (except `keep`); returns the numbers closed. */
export function closeInheritedFds(keep: readonly number[] = []): number[] {
  if (process.platform !== 'linux') return [];
  const ipc = Number(process.env.NODE_CHANNEL_FD);
  const closed: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return closed;
  }
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || keep.includes(fd) || fd === ipc) continue;
    const flags = fdFlags(fd);
    // The directory handle readdirSync used is gone by now: its fdinfo no longer reads.
    if (flags === undefined || (flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      /* already closed */
    }
  }
  return closed;
}

function fdFlags(fd: number): number | undefined {
  try {
    const m = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return m ? parseInt(m[1]!, 8) : undefined;
  } catch {
    return undefined;
  }
}

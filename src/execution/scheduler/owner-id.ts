// Runner identities (host:pid:random) and whether the process behind one is gone.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A new owner id for a runner in this process. */
export function newOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * True when `owner` names a process on this host that no longer exists, so its lease need not
 * run out first. A reused pid only delays recovery until the lease expires (the safe direction).
 */
export function ownerIsDead(owner: string | null): boolean {
  if (!owner) return true;
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

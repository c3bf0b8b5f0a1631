// Asynchronous listing of a directory through a verified descriptor (open-checked.ts): names come
// from opendir's async iteration (batches on the libuv pool) and lstat is taken in slices with a
// turn of the event loop between them, so a directory of 300k entries never holds the server for
// seconds. The deadline bounds the listing; a cut-short listing says so (partial).
import { closeSync, lstatSync, type Dirent, type Stats } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { dirFdPath, openDirVerified, type DirListing } from './open-checked.js';
import { makeTicker } from './yield-loop.js';

export interface AsyncDirListing extends DirListing {
  /** True when the deadline came before every entry was read. */
  partial: boolean;
}

/** Lists directory `expected` through a verified descriptor; empty when unverifiable. */
export async function readDirVerifiedAsync(expected: string, withStats: boolean, deadline = Infinity): Promise<AsyncDirListing> {
  const fd = openDirVerified(expected);
  if (fd === null) return { dirents: [], partial: false };
  try {
    const base = dirFdPath(fd, expected);
    const { dirents, partial } = await names(base, deadline);
    if (!withStats) return { dirents, partial };
    const stats = new Map<string, Stats>();
    const tick = makeTicker(256);
    for (const d of dirents) {
      if (Date.now() > deadline) return { dirents: dirents.filter((x) => stats.has(x.name)), stats, partial: true };
      try {
        stats.set(d.name, lstatSync(`${base}/${d.name}`));
      } catch {
        // vanished
      }
      await tick();
    }
    return { dirents, stats, partial };
  } catch {
    return { dirents: [], partial: false };
  } finally {
    closeSync(fd);
  }
}

async function names(base: string, deadline: number): Promise<{ dirents: Dirent[]; partial: boolean }> {
  const dirents: Dirent[] = [];
  const dir = await opendir(base, { bufferSize: 256 });
  try {
    for (let d = await dir.read(); d !== null; d = await dir.read()) {
      dirents.push(d);
      if (dirents.length % 256 === 0 && Date.now() > deadline) return { dirents, partial: true };
    }
  } finally {
    await dir.close().catch(() => undefined);
  }
  // readdirSync (libuv scandir) returns names sorted; keep that order (hard links count once, first by name).
  return { dirents: dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), partial: false };
}

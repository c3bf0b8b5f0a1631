// Mounted real filesystems (from /proc/mounts) with their sizes from statfs.
import { readFileSync, statfsSync } from 'node:fs';

export interface DiskInfo {
  mount: string;
  fs: string;
  size_bytes: number;
  used_bytes: number;
  avail_bytes: number;
}

const PSEUDO = new Set(['proc', 'sysfs', 'devpts', 'tmpfs', 'devtmpfs', 'cgroup', 'cgroup2', 'mqueue', 'debugfs', 'tracefs', 'securityfs', 'pstore', 'bpf', 'configfs', 'fusectl', 'hugetlbfs', 'autofs', 'binfmt_misc', 'nsfs', 'rpc_pipefs', 'efivarfs', 'ramfs', 'squashfs', 'overlay', 'shm', 'none']);

/** Real filesystems, one per device, with size/used/available bytes (at most 64). */
export function listDisks(mountsFile = '/proc/mounts'): DiskInfo[] {
  let text: string;
  try {
    text = readFileSync(mountsFile, 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const out: DiskInfo[] = [];
  for (const line of text.split('\n')) {
    const [dev, rawMount, fs] = line.split(' ');
    if (!dev || !fs || (PSEUDO.has(fs) && rawMount !== '/') || seen.has(dev) || out.length >= 64) continue;
    const mount = rawMount.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const d = statDisk(mount, fs);
    if (d && d.size_bytes > 0) (seen.add(dev), out.push(d));
  }
  return out;
}

function statDisk(mount: string, fs: string): DiskInfo | null {
  try {
    const s = statfsSync(mount);
    const size = s.blocks * s.bsize;
    return { mount, fs, size_bytes: size, used_bytes: size - s.bfree * s.bsize, avail_bytes: s.bavail * s.bsize };
  } catch {
    return null;
  }
}

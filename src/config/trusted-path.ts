// Whether a path can have been written only by the person running Workbench (or root): every
// component, from `/` down, is owned by the user or root and not writable by group or others
// (a sticky directory such as /tmp is accepted: there others cannot rename what they do not own).
import { lstatSync, type Stats } from 'node:fs';
import { dirname, sep } from 'node:path';

export interface TrustRules {
  /** A symbolic link anywhere on the path is refused (the state directories). */
  noSymlinks?: boolean;
  /** The last component must be owned by the user itself, not root (what we create). */
  ownedBySelf?: boolean;
}

/** The first reason the absolute path `p` is not trustworthy, or undefined; missing components end the walk. */
export function untrustedReason(p: string, rules: TrustRules = {}): string | undefined {
  const uid = process.geteuid?.() ?? 0;
  const parts = components(p);
  for (let i = 0; i < parts.length; i++) {
    const c = parts[i]!;
    const st = lstatOrUndefined(c);
    if (!st) return undefined;
    const last = i === parts.length - 1;
    if (st.isSymbolicLink() && rules.noSymlinks) return `${c} is a symbolic link; use the real path`;
    if (st.uid !== uid && st.uid !== 0) return `${c} is owned by uid ${st.uid}, not by you (uid ${uid}) or root`;
    if (last && rules.ownedBySelf && st.uid !== uid) return `${c} is owned by uid ${st.uid}, not by you (uid ${uid})`;
    const sticky = (st.mode & 0o1000) !== 0 && !last;
    if (!st.isSymbolicLink() && (st.mode & 0o022) !== 0 && !sticky) {
      return `${c} is writable by ${st.mode & 0o002 ? 'others' : 'its group'} (mode ${(st.mode & 0o7777).toString(8)}); run chmod go-w ${c}`;
    }
  }
  return undefined;
}

/** `/`, `/a`, `/a/b`, … for an absolute path. */
function components(p: string): string[] {
  const out: string[] = [];
  for (let cur = p; ; cur = dirname(cur)) {
    out.unshift(cur);
    if (cur === sep || dirname(cur) === cur) return out;
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

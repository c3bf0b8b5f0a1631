// uid → user name from /etc/passwd (readable by everyone; never /etc/shadow).
import { readFileSync } from 'node:fs';

/** Maps uids to names; empty when /etc/passwd is unreadable. */
export function userNames(passwd = '/etc/passwd'): Map<number, string> {
  const m = new Map<number, string>();
  try {
    for (const line of readFileSync(passwd, 'utf8').split('\n')) {
      const [name, , uid] = line.split(':');
      if (name && uid && !m.has(Number(uid))) m.set(Number(uid), name);
    }
  } catch {
    /* no passwd: numeric uids are shown */
  }
  return m;
}

// The real filesystem behind the policy layer's injected PolicyFs (policy itself never touches the disk);
// here so both a server (control) and a job supervisor (execution) decide against the same disk facts.
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import type { PolicyFs } from '../policy/types.js';

/** realpath via the native call, and executable checks without exceptions on the common miss. */
export const realPolicyFs: PolicyFs = {
  realpath(p) {
    try {
      return realpathSync.native(p);
    } catch {
      return null;
    }
  },
  isExecutable(p) {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st?.isFile()) return false;
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  threadGroupOf(pid) {
    try {
      const m = /^Tgid:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  },
};

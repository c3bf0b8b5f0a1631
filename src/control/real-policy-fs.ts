// The real filesystem behind the policy layer's injected PolicyFs (policy itself never touches the disk).
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
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
};

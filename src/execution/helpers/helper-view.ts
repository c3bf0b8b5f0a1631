// Where a helper program runs: the read-only sandbox view when the host can confine, else the
// host itself — but only for helpers that may run there (see HelperSpec.unconfined).
import { isWithin } from '../../sandbox/bwrap-mounts.js';
import type { CgroupLimits } from '../../sandbox/cgroup.js';
import type { HostCapabilities } from '../../sandbox/capabilities.js';
import type { SandboxOptions } from '../../sandbox/plan.js';
import type { Config } from '../../config/schema.js';
import type { Runtime } from '../../config/runtime.js';
import { AppError } from '../../shared/errors.js';

/** What the launch path needs from the server (AppDeps satisfies it). */
export interface HelperHost {
  runtime: Pick<Runtime, 'readRoots' | 'workspaceRoots' | 'stateDir' | 'homeDir'>;
  config: { sandbox: Config['sandbox'] };
  capabilities(): HostCapabilities;
}

export interface HelperPlace {
  /** A checked directory to run in; '/' when omitted. Package managers never pass one. */
  cwd?: string;
  /** Host paths the program reads beyond the roots and system dirs (bound read-only). */
  binds?: string[];
  /**
   * Where the host cannot confine: 'run' for programs whose argv is ours and that execute no code
   * read from the filesystem (git under its config check, rg, dpkg-query, systemctl, ps);
   * 'refuse' for interpreters and package managers that load code (pip, npm, brew).
   */
  unconfined: 'run' | 'refuse';
}

export interface HelperView {
  sandbox: SandboxOptions;
  /** True when bubblewrap confines the helper (the read-only view); false on the host. */
  confined: boolean;
}

// Directories the system view already shows (or replaces: /proc, /dev): never bound again.
// (/sys is left out of a helper's view, and never bound for one either.)
const SYSTEM_VIEW = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/sys', '/proc', '/dev'];

/** The view for one helper; throws unavailable where it may not run unconfined. */
export function helperView(host: HelperHost, program: string, place: HelperPlace): HelperView {
  const why = whyNotConfined(host);
  if (why !== null && (host.config.sandbox.require || place.unconfined === 'refuse')) {
    const name = program.split('/').pop();
    const what = host.config.sandbox.require ? 'sandbox.require is set' : `${name} runs code it loads from the filesystem`;
    throw new AppError('unavailable', `${what}, and this host cannot confine helper programs (${why}), so Workbench does not run ${name}`, {
      hint: 'install bubblewrap and enable unprivileged user namespaces, and leave sandbox.bubblewrap at "auto"',
    });
  }
  const cwd = place.cwd ?? '/';
  const { runtime, config } = host;
  // A checked directory outside the roots (a system path the visibility rule allows) is bound
  // read-only so the helper can run there; secrets and the state dir beneath it stay masked.
  const shown = cwd === '/' || [runtime.readRoots, SYSTEM_VIEW].flat().some((d) => isWithin(cwd, d));
  const cwdBind = shown ? [] : [cwd];
  return {
    confined: why === null,
    sandbox: {
      profile: 'read-only',
      readRoots: runtime.readRoots,
      writeRoots: [],
      workspaceRoots: runtime.workspaceRoots,
      stateDir: runtime.stateDir,
      homeDir: runtime.homeDir,
      cwd,
      network: false,
      useBubblewrap: why === null,
      limits: { fileSizeBytes: config.sandbox.file_size_max_mb * 1024 * 1024, cpuSeconds: 0 },
      extraReadOnly: [...(place.binds ?? []), ...cwdBind],
      sys: false,
    },
  };
}

/** The cgroup limits of a helper: the same as a command's. */
export function helperLimits(host: HelperHost): CgroupLimits {
  const s = host.config.sandbox;
  return { memoryBytes: s.memory_max_mb * 1024 * 1024, pidsMax: s.pids_max, cpuPercent: s.cpu_percent };
}

/** Why bubblewrap cannot confine helpers here, or null when it can. */
export function whyNotConfined(host: HelperHost): string | null {
  if (host.config.sandbox.bubblewrap === 'off') return 'sandbox.bubblewrap is "off" in the config';
  const bw = host.capabilities().bubblewrap;
  if (!bw.works || !bw.path) return bw.reason ?? 'bubblewrap cannot create namespaces here';
  return null;
}

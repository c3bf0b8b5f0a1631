// A helper run whose stdout is collected up to a byte budget (git, package managers, systemctl, ps).
import { runHelper, type HelperHost, type HelperSpec } from './run-helper.js';

export interface BoundedHelperSpec extends Omit<HelperSpec, 'onStdout'> {
  maxBytes: number;
}

export interface BoundedRunResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  /** stdout went past maxBytes: it holds the first maxBytes and the program was stopped. */
  truncated: boolean;
  timedOut: boolean;
  layers: string[];
}

/** Runs the helper confined; past maxBytes of stdout (or the deadline) its tree is killed. */
export async function runHelperBounded(host: HelperHost, spec: BoundedHelperSpec): Promise<BoundedRunResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const r = await runHelper(host, {
    ...spec,
    onStdout(b, stop) {
      const room = spec.maxBytes - size;
      if (b.length <= room) return void (chunks.push(b), (size += b.length));
      truncated = true;
      chunks.push(b.subarray(0, room));
      size += room;
      stop();
    },
  });
  return { stdout: Buffer.concat(chunks), stderr: r.stderr, code: r.code, truncated, timedOut: r.timedOut, layers: r.layers };
}

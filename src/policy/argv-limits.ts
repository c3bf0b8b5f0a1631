// Bounds on an argv before anything else looks at it: control characters, count and size, and the number of pipeline stages.
import { PolicyDenial, refuse } from './denial.js';

export const MAX_ARGS = 1024;
export const MAX_ARG_BYTES = 32 * 1024;
export const MAX_TOTAL_BYTES = 256 * 1024;
/** At most this many stages in an `a | b | c` pipeline (SPEC §3.1): per-stage work stays bounded. */
export const MAX_STAGES = 16;

/** Refuses a pipeline of more than MAX_STAGES stages (`pipeline.too_many_stages`). */
export function checkStageCount(stages: number): void {
  if (stages > MAX_STAGES) {
    refuse('pipeline.too_many_stages', `the pipeline has ${stages} stages, over the limit of ${MAX_STAGES}; split the work into several calls`);
  }
}

/** Refuses NUL/newline/CR in any element (`arg.control_char`) and over-long argv (`arg.too_long`). */
export function checkArgv(argv: readonly string[]): void {
  if (argv.length === 0 || argv[0] === '') {
    throw new PolicyDenial('cmd.empty', 'command is empty; send a program name and its arguments', 'invalid_params');
  }
  if (argv.length > MAX_ARGS) refuse('arg.too_long', `${argv.length} arguments is over the limit of ${MAX_ARGS}; split the work into several calls`);
  let total = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (typeof a !== 'string') throw new PolicyDenial('arg.type', `argument ${i} is not a string`, 'invalid_params');
    const bytes = Buffer.byteLength(a, 'utf8');
    if (bytes > MAX_ARG_BYTES) refuse('arg.too_long', `argument ${i} is ${bytes} bytes, over the ${MAX_ARG_BYTES}-byte limit; pass large data through stdin or a file`);
    total += bytes;
    if (hasControl(a)) refuse('arg.control_char', `argument ${i} contains a NUL, newline or carriage return; pass one line per argument or use stdin`);
  }
  if (total > MAX_TOTAL_BYTES) refuse('arg.too_long', `arguments total over ${MAX_TOTAL_BYTES} bytes; pass large data through stdin or a file`);
}

function hasControl(a: string): boolean {
  return a.includes('\n') || a.includes('\0') || a.includes('\r');
}

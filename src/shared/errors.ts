// The one error type every plane throws; control/envelope.ts turns it into a tool result.
export const ERROR_CLASSES = [
  'invalid_params',
  'policy_denied',
  'path_denied',
  'not_found',
  'timeout',
  'too_large',
  'busy',
  'unavailable',
  'cancelled',
  'exec_failed',
  'internal',
] as const;

export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface AppErrorOptions {
  /** Stable policy rule id such as `path.traversal` or `cmd.not_allowed`. */
  rule?: string;
  /** What the caller can do instead. Appended to the message when rendered. */
  hint?: string;
  /** Facts the caller needs to act, spread into the structured result (`bytes_written` of a busy job_input). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** A failure that the caller can act on: it carries an error class and a sentence saying what to do. */
export class AppError extends Error {
  readonly errorClass: ErrorClass;
  readonly rule?: string;
  readonly hint?: string;
  readonly details?: Record<string, unknown>;

  constructor(errorClass: ErrorClass, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.errorClass = errorClass;
    this.rule = options.rule;
    this.hint = options.hint;
    this.details = options.details;
  }
}

/** Narrows an unknown thrown value to an AppError, wrapping anything else as `internal`. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('internal', 'an internal error occurred; see the server log for details', { cause: err });
}

/** Shorthand constructors keep call sites short and the class names greppable. */
export const invalidParams = (message: string, hint?: string) => new AppError('invalid_params', message, { hint });
export const notFound = (message: string, hint?: string) => new AppError('not_found', message, { hint });
export const unavailable = (message: string, hint?: string) => new AppError('unavailable', message, { hint });
export const policyDenied = (rule: string, message: string, hint?: string) =>
  new AppError('policy_denied', message, { rule, hint });
export const pathDenied = (rule: string, message: string, hint?: string) =>
  new AppError('path_denied', message, { rule, hint });

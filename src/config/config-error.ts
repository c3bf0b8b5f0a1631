// The error of a config or state directory that cannot be used, in a module of its own so that low
// layers (the sandbox's private files, the job supervisor) can raise it without loading zod or TOML.

/** Raised for a config that cannot be used; the CLI prints the message and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

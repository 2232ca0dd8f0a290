/**
 * A mistake in how the command was called (unknown flag, missing value, bad number). The CLI
 * prints its message and the command's usage line, and exits with code 2; never a stack trace.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

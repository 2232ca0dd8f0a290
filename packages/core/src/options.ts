/**
 * The readers of every endpoint's options (verifier, webhook receiver, connect flow): each checks
 * one option at start-up and, when it is wrong, throws a TypeError that names the option as the
 * user typed it (`webhooks: maxBodyBytes`), never its value. Secrets are read by `readSecrets`.
 */

/** The range of a number option. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  /** Whole numbers only (counts, seconds). */
  readonly integer?: boolean;
}

/**
 * `value` when it is a number within `range`, `fallback` when it is `undefined`. `name` is how
 * the error names the option, e.g. `webhooks: timeoutMs` or `connect: stateTtlSeconds`.
 */
export function readNumberOption(
  name: string,
  value: unknown,
  fallback: number,
  range: NumberRange,
): number {
  if (value === undefined) return fallback;
  const { min, max, integer = false } = range;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new TypeError(
      `[@questkit/core] ${name} must be a ${integer ? 'whole number' : 'number'} from ${min} to ${max}`,
    );
  }
  return value;
}

/** `value` when it is a function, `undefined` when absent (unless `required`). */
export function readFunctionOption<F>(name: string, value: F | undefined, required: true): F;
export function readFunctionOption<F>(name: string, value: F | undefined): F | undefined;
export function readFunctionOption<F>(
  name: string,
  value: F | undefined,
  required = false,
): F | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'function')
    throw new TypeError(`[@questkit/core] ${name} must be a function`);
  return value;
}

/** `true` or `false`, `fallback` when absent. */
export function readBooleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`[@questkit/core] ${name} must be true or false`);
  return value;
}

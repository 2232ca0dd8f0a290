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

/**
 * The verifier's two hooks, each wrapped once so that neither can throw into a request:
 * `report` tells `onError`, `notify` tells `onResult` (its throw is reported as `hook_error`) and
 * is undefined without one.
 */
export function readHooks<
  Info extends { reason: string; requestId?: string },
  Event extends { requestId?: string },
>(
  onError: (error: unknown, info: Info) => void,
  onResult: ((event: Event) => void) | undefined,
): {
  report: (error: unknown, info: Info) => void;
  notify: ((event: Event) => void) | undefined;
} {
  readFunctionOption('onError', onError, true);
  readFunctionOption('onResult', onResult);
  const report = (error: unknown, info: Info) => {
    try {
      onError(error, info);
    } catch {
      // A broken error hook must not change the answer.
    }
  };
  // Undefined without `onResult`, so that no event is built that nobody reads.
  const notify =
    onResult &&
    ((event: Event) => {
      try {
        onResult(event);
      } catch (error) {
        report(error, { reason: 'hook_error', requestId: event.requestId } as Info);
      }
    });
  return { report, notify };
}

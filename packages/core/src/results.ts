import { normalizeMessage } from './messages.js';

/** Shown on 200 when the handler gives no message of its own. */
export const DEFAULT_OK_MESSAGE = 'Task verified.';
/** Shown on 400 when the handler gives no usable message of its own. */
export const DEFAULT_FAIL_MESSAGE = 'We could not verify this task yet.';

const RESULT = Symbol.for('questkit.result');

/** What a verify handler returns: build it with {@link ok} or {@link fail}. */
export interface VerifyResult {
  /** true: the task is claimed (200); false: not verified (400). */
  readonly claimed: boolean;
  /** The member-facing message, already normalized. */
  readonly message: string;
  readonly [RESULT]: true;
}

/**
 * The member did what the task asks: the endpoint answers 200 `{message}`.
 *
 * @example
 * return ok('Thanks for subscribing!');
 */
export function ok(message?: string): VerifyResult {
  return { claimed: true, message: normalizeMessage(message, DEFAULT_OK_MESSAGE), [RESULT]: true };
}

/**
 * The action is not verified: the endpoint answers 400 `{message}`, and the platform shows the
 * message to the member with the requestId. Say what the member can do about it.
 *
 * @example
 * return fail('Subscribe to the newsletter with the email of your account, then claim again.');
 */
export function fail(message: string): VerifyResult {
  return {
    claimed: false,
    message: normalizeMessage(message, DEFAULT_FAIL_MESSAGE),
    [RESULT]: true,
  };
}

/** True for a value built by {@link ok} or {@link fail}. */
export function isVerifyResult(value: unknown): value is VerifyResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[RESULT] === true &&
    typeof (value as VerifyResult).claimed === 'boolean' &&
    typeof (value as VerifyResult).message === 'string'
  );
}

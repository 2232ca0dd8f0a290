// The platform's rules for webhook deliveries, as its public documentation states them
// (platform-docs-notes.md §1, rows "webhook delivery success", "webhook retries" and "two
// timeouts"). One place: the engine, the options' defaults and the README's table read these.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A try succeeds only on exactly this status ("exactly 200": 201 and 204 are failures).
 * Source: platform-docs-notes.md §1, "webhook delivery success".
 */
export const WEBHOOK_SUCCESS_STATUS = 200;

/**
 * Time a receiver has for its whole answer, body included, in ms.
 * Source: platform-docs-notes.md §1, "webhook delivery success" and "two timeouts" (5 s).
 */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * The largest answer body of a successful try, in bytes; a bigger one is a failure.
 * Source: platform-docs-notes.md §1, "webhook delivery success" (at most 5,000 bytes).
 */
export const WEBHOOK_MAX_ANSWER_BYTES = 5_000;

/**
 * The retry schedule: entry *n* is the wait after failed try *n* before try *n + 1*. 15 retries
 * (16 tries in all), then the delivery is `exhausted`.
 *
 * Source: platform-docs-notes.md §1, "webhook retries": "retried up to 15 times, with exponential
 * backoff, starting at about 10 minutes and then about 30 minutes. The exact later steps are not
 * documented: extend the curve". Our extension: the documented ratio (×3) continues to 13 h 30,
 * and the wait is capped at a day from there on (a curve ×3 to the 15th retry would wait 91 years).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  10 * MINUTE,
  30 * MINUTE,
  90 * MINUTE,
  270 * MINUTE,
  810 * MINUTE,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
  24 * HOUR,
]);

/** Why a try failed, or null when it succeeded. */
export function deliveryFailure(answer: {
  status?: number;
  truncated?: boolean;
  error?: string;
}): string | null {
  if (answer.status === undefined) return answer.error ?? 'no answer';
  if (answer.status !== WEBHOOK_SUCCESS_STATUS) {
    return `answered ${answer.status}; a delivery needs exactly ${WEBHOOK_SUCCESS_STATUS}`;
  }
  if (answer.truncated) {
    return `answered ${WEBHOOK_SUCCESS_STATUS} with a body over ${WEBHOOK_MAX_ANSWER_BYTES} bytes`;
  }
  return null;
}

/** A delay in words, for the README's table and messages: `10 min`, `13 h 30 min`, `1 day`. */
export function describeDelay(ms: number): string {
  if (ms % (24 * HOUR) === 0 && ms > 0) {
    const days = ms / (24 * HOUR);
    return `${days} day${days === 1 ? '' : 's'}`;
  }
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.round((ms % MINUTE) / 1000);
  const parts = [
    hours > 0 ? `${hours} h` : '',
    minutes > 0 ? `${minutes} min` : '',
    seconds > 0 ? `${seconds} s` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : '0 s';
}

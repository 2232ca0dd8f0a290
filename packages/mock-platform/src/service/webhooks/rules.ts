// The platform's rules for webhook deliveries, as its public documentation states them
// (platform-docs-notes.md §1, rows "webhook delivery success", "webhook retries" and "two
// timeouts"). One place: the engine, the options' defaults and the README's table read these.

// The success rule (exactly 200, within 5 s, at most 5,000 bytes) lives in core, where
// `questkit check-webhook` reads it too; the retry schedule is the platform's alone.
export {
  deliveryFailure,
  WEBHOOK_MAX_ANSWER_BYTES,
  WEBHOOK_SUCCESS_STATUS,
  WEBHOOK_TIMEOUT_MS,
} from '@questkit/core/api';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The retry schedule: entry *n* is the wait after failed try *n* before try *n + 1*. 15 retries
 * (16 tries in all), then the delivery is `exhausted`.
 *
 * Source: platform-docs-notes.md §1 line 18, "webhook retries": "retried up to 15 times, with exponential
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

/** A duration in words, as the README's table shows it: `10 min`, `13 h 30 min`, `1 d 20 h 10 min`. */
export function describeDelay(ms: number): string {
  const DAY = 24 * HOUR;
  const parts = [
    [Math.floor(ms / DAY), 'd'],
    [Math.floor((ms % DAY) / HOUR), 'h'],
    [Math.floor((ms % HOUR) / MINUTE), 'min'],
    [Math.round((ms % MINUTE) / 1000), 's'],
  ] as const;
  const shown = parts.filter(([value]) => value > 0).map(([value, unit]) => `${value} ${unit}`);
  return shown.length > 0 ? shown.join(' ') : '0 s';
}

/** The retry schedule as the README's Markdown table: each try, its wait, and the time since the event. */
export function retryScheduleTable(delays: readonly number[] = WEBHOOK_RETRY_DELAYS_MS): string {
  const rows = [
    '| Try | Wait after the previous try | Since the event |',
    '| ---: | ---: | ---: |',
  ];
  rows.push('| 1 | (at once) | 0 |');
  let total = 0;
  delays.forEach((ms, index) => {
    total += ms;
    rows.push(`| ${index + 2} | ${describeDelay(ms)} | ${describeDelay(total)} |`);
  });
  return rows.join('\n');
}

/** What {@link beforeDeadline} resolves with when the deadline passes first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * `work`'s result, or {@link TIMED_OUT} once `deadline` (a `Date.now()` timestamp) passes,
 * whichever comes first. A plain `setTimeout`, cleared as soon as the work settles; a promise
 * settles once, so there is one writer of the outcome by construction.
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  deadline: number,
): Promise<T | typeof TIMED_OUT> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

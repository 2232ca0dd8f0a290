/** What {@link beforeDeadline} resolves with when the deadline passes first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * `work`'s result, or {@link TIMED_OUT} once `deadline` (a `Date.now()` timestamp) passes,
 * whichever comes first. One {@link timerUntil}, cleared as soon as the work settles; a promise
 * settles once, so there is one writer of the outcome by construction.
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  deadline: number,
): Promise<T | typeof TIMED_OUT> {
  return new Promise((resolve, reject) => {
    const timer = timerUntil(deadline, () => resolve(TIMED_OUT));
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

/**
 * A timer that calls `onTimeout` at `until` (a `Date.now()` timestamp); cancel it with
 * `clearTimeout`. Every deadline of core (a body's read and drain, a claim handler's run, a
 * webhook's dedupe store and handler) is one.
 *
 * On runtimes whose timers can be unref'd (Node, Bun) it is: a deadline guards a request that
 * something else keeps alive (its socket, the server, a call the handler awaits), so the guard
 * itself never holds a process open. It still fires on time whenever the process is alive to
 * answer (bench/README.md, "Where the time goes", has what it costs).
 */
export function timerUntil(until: number, onTimeout: () => void): ReturnType<typeof setTimeout> {
  const timer = setTimeout(onTimeout, Math.max(0, until - Date.now()));
  // Web runtimes (Workers, Deno, browsers) return a number: nothing to unref.
  (timer as { unref?: () => unknown }).unref?.();
  return timer;
}

/**
 * The source of time of the mock. Every timestamp the mock writes and every time-based decision
 * it takes (rate limit, token expiry, claimCounter refresh) reads this clock, so tests can move
 * time forward instead of waiting.
 */
export interface Clock {
  /** The current time. */
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that only moves when told to, for tests.
 *
 * @example
 * const clock = createManualClock('2025-01-01T00:00:00Z');
 * const platform = createMockPlatform({ clock });
 * clock.advance(3_600_000);
 */
export function createManualClock(start: string | Date = '2025-01-01T00:00:00.000Z'): ManualClock {
  let current = new Date(start).getTime();
  if (Number.isNaN(current)) {
    throw new TypeError('[@questkit/mock-platform] createManualClock: start is not a valid date');
  }
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
    set: (at: string | Date) => {
      current = new Date(at).getTime();
    },
  };
}

/** A clock moved by hand. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to a date. */
  set(at: string | Date): void;
}

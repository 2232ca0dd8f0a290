import type { Clock } from '../../clock.js';

/** A rate per target that lets calls wait their turn instead of refusing them. */
export interface TargetRate {
  /**
   * Reserves the target's next free turn and waits for it; false (nothing reserved) when that
   * turn is more than `maxWaitMs` away.
   */
  wait(target: string, maxWaitMs: number): Promise<boolean>;
  describe(): { perSecond: number; burst: number };
}

/**
 * A token bucket per target whose tokens may be borrowed ahead: a call that finds it empty takes
 * the next token that will come and sleeps until then, so waiters go in order, each woken once.
 * The bucket refills by `clock` (a test stands it still: then only `burst` calls go at once, and
 * the next ones wait in real time).
 */
export function createTargetRate(
  options: { perSecond: number; burst: number },
  clock: Clock,
): TargetRate {
  const { perSecond, burst } = options;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    describe: () => ({ perSecond, burst }),
    async wait(target, maxWaitMs) {
      const now = clock.now().getTime();
      const bucket = buckets.get(target) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(
        burst,
        bucket.tokens + (Math.max(0, now - bucket.at) * perSecond) / 1000,
      );
      bucket.at = now;
      buckets.set(target, bucket);
      const waitMs = bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) * 1000) / perSecond;
      if (waitMs > maxWaitMs) return false;
      bucket.tokens -= 1;
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(waitMs)));
      return true;
    },
  };
}

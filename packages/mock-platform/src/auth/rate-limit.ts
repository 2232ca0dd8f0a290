import type { Clock } from '../clock.js';

/** Rate limit settings: a token bucket per credential. */
export interface RateLimitOptions {
  /** Tokens added per second. */
  perSecond: number;
  /** Bucket size: requests allowed in a burst (default `perSecond`). */
  burst?: number;
}

/** The verdict on one request. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Takes one token from a credential's bucket. */
export interface RateLimiter {
  take(bucket: string): RateDecision;
}

/**
 * A token bucket per credential, timed by the platform clock (tests move the clock instead of
 * waiting). `false` lets every request through.
 *
 * @example
 * const limiter = createRateLimiter({ perSecond: 50 }, systemClock);
 * limiter.take('key:1'); // { ok: true }
 */
export function createRateLimiter(options: RateLimitOptions | false, clock: Clock): RateLimiter {
  if (options === false) return { take: () => ({ ok: true }) };
  const perSecond = options.perSecond;
  const burst = options.burst ?? perSecond;
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
    throw new TypeError('[@questkit/mock-platform] rateLimit.perSecond must be a positive number');
  }
  if (!(burst >= 1) || !Number.isFinite(burst)) {
    throw new TypeError('[@questkit/mock-platform] rateLimit.burst must be at least 1');
  }
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(name) {
      const now = clock.now().getTime();
      const bucket = buckets.get(name) ?? { tokens: burst, at: now };
      const elapsed = Math.max(0, now - bucket.at);
      bucket.tokens = Math.min(burst, bucket.tokens + (elapsed * perSecond) / 1000);
      bucket.at = now;
      buckets.set(name, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      const waitMs = ((1 - bucket.tokens) * 1000) / perSecond;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

/** How a 429 is retried; `retry: false` turns retries off. */
export interface RetryOptions {
  /** Retries after the first try (default 2). */
  retries?: number;
  /** First backoff when the answer has no `Retry-After`, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait; a `Retry-After` beyond it is not waited for (default 10 000 ms). */
  maxDelayMs?: number;
  /** Retry POST and PATCH too (default false: only GET and DELETE, which repeat safely). */
  nonIdempotent?: boolean;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  nonIdempotent: false,
};

/**
 * The wait before retry `attempt` (0-based): the `Retry-After` of the answer (seconds or an HTTP
 * date) when it has one, else exponential backoff with full jitter; null when the wait would be
 * longer than `maxDelayMs`.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | null,
  options: Required<RetryOptions>,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | null {
  let delay: number;
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
    delay = Number(retryAfter.trim()) * 1000;
  } else if (retryAfter !== null && !Number.isNaN(Date.parse(retryAfter))) {
    delay = Math.max(0, Date.parse(retryAfter) - now);
  } else {
    delay = random() * options.baseDelayMs * 2 ** attempt;
  }
  return delay > options.maxDelayMs ? null : delay;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

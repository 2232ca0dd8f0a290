import type { ObservedAnswer } from '@questkit/core/api';
import { createRateLimiter } from '../../auth/rate-limit.js';
import { type Clock, systemClock } from '../../clock.js';
import { createRingJournal } from '../ring-journal.js';
import { type PostJsonOptions, postJson } from './http-call.js';

/** What made the mock call out. */
export type OutboundKind = 'endpoint-check' | 'claim' | 'delivery';

/** Bounds of the mock's outgoing calls, given to `createMockPlatform` as `outbound`. */
export interface OutboundOptions {
  /** Most calls in flight at once, every target together (default 64); the others wait. */
  concurrency?: number;
  /** Calls per second to one target (`host:port`), a token bucket (default 100). */
  perTargetPerSecond?: number;
  /** Calls to one target in a burst (default 200). */
  burst?: number;
  /** Most calls waiting for a free slot; past it a call is refused (default 1000). */
  maxWaiting?: number;
  /** The clock the per-target buckets refill by (default the system clock: targets live in real time). */
  clock?: Clock;
  /** Refusals kept by `refusals()` (default 1000). */
  journalSize?: number;
}

/** A call the limiter refused: it was never sent. */
export interface OutboundRefusal {
  /** When (platform clock). */
  at: string;
  kind: OutboundKind;
  /** `host:port` of the URL. */
  target: string;
  /** Why, in a sentence. */
  reason: string;
}

/** Thrown by {@link Outbound.run} for a call it refused; the message starts with "not sent". */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
}

/** The one gate of every call the mock makes: endpoint checks, claims, webhook deliveries. */
export interface Outbound {
  /** Runs `call` when a slot is free; throws {@link OutboundRefusedError} (and records it) when refused. */
  run<T>(kind: OutboundKind, url: string, call: () => Promise<T>): Promise<T>;
  /** POSTs JSON through the gate; a refused call comes back as an answer with `error` set, never thrown. */
  post(kind: OutboundKind, url: string, options: PostJsonOptions): Promise<ObservedAnswer>;
  /** The last refusals, oldest first. */
  refusals(): OutboundRefusal[];
  /** Forgets the refusals. */
  clearRefusals(): void;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`[@questkit/mock-platform] outbound.${name} must be a positive integer`);
  }
  return value;
}

const targetOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * The outbound gate: a concurrency bound over every target, a token bucket per target, and a
 * journal of what it refused, so one request cannot make the mock flood a URL of its choice.
 *
 * @example
 * const outbound = createOutbound({ concurrency: 8 }, systemClock);
 * const answer = await outbound.post('claim', 'http://127.0.0.1:4010/verify', { headers, body, timeoutMs });
 */
export function createOutbound(
  options: OutboundOptions = {},
  platformClock: Clock = systemClock,
): Outbound {
  const concurrency = positiveInteger('concurrency', options.concurrency, 64);
  const perSecond = positiveInteger('perTargetPerSecond', options.perTargetPerSecond, 100);
  const burst = positiveInteger('burst', options.burst, 200);
  const maxWaiting = positiveInteger('maxWaiting', options.maxWaiting, 1000);
  const rate = createRateLimiter({ perSecond, burst }, options.clock ?? systemClock);
  const journal = createRingJournal<OutboundRefusal, 'kind'>(
    positiveInteger('journalSize', options.journalSize, 1000),
    ['kind'],
  );
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  const refuse = (kind: OutboundKind, target: string, reason: string): never => {
    journal.record({ at: platformClock.now().toISOString(), kind, target, reason });
    throw new OutboundRefusedError(`not sent: ${reason}`);
  };

  const run: Outbound['run'] = async (kind, url, call) => {
    const target = targetOf(url);
    if (!rate.take(target).ok) {
      refuse(
        kind,
        target,
        `the mock sends at most ${perSecond} calls per second to ${target} (burst ${burst})`,
      );
    }
    if (running < concurrency) running += 1;
    else if (waiting.length >= maxWaiting) {
      refuse(
        kind,
        target,
        `${maxWaiting} outgoing calls are already waiting for one of ${concurrency} slots`,
      );
    } else {
      // The slot is handed over by `release`: `running` stays counted for the waiter.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await call();
    } finally {
      release();
    }
  };

  return {
    run,
    async post(kind, url, postOptions) {
      try {
        return await run(kind, url, () => postJson(url, postOptions));
      } catch (error) {
        if (!(error instanceof OutboundRefusedError)) throw error;
        return { elapsedMs: 0, error: error.message };
      }
    },
    refusals: () => journal.list(),
    clearRefusals: () => journal.clear(),
  };
}

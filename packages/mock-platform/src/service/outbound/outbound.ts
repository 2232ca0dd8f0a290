import type { ObservedAnswer } from '@questkit/core/api';
import { type Clock, systemClock } from '../../clock.js';
import { createRecentRecords } from '../recent-records.js';
import { type PostJsonOptions, postJson } from './http-call.js';
import { createSlots } from './slots.js';
import { createTargetRate } from './target-rate.js';

/** What made the mock call out. */
export type OutboundKind = 'endpoint-check' | 'claim' | 'delivery';

/** Bounds of the mock's outgoing calls, given to `createMockPlatform` as `outbound`. */
export interface OutboundOptions {
  /** Members' calls (claims, deliveries) in flight at once, every target together (default 64); the others wait. */
  concurrency?: number;
  /** Calls per second to one target (`host:port`), a token bucket (default 100). */
  perTargetPerSecond?: number;
  /** Calls to one target in a burst (default 200). */
  burst?: number;
  /** Most members' calls waiting for a free slot; past it a call is refused (default 1000). */
  maxWaiting?: number;
  /**
   * Automatic endpoint checks' calls in flight at once, in their own lane beside members' calls
   * (default 4), with their own bucket per target (a tenth of `perTargetPerSecond` and `burst`).
   */
  checkConcurrency?: number;
  /** Automatic checks one key holder may have queued or running in a community; the others are skipped (default 50). */
  checksPerKey?: number;
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
  /** Automatic checks one key holder may have queued or running in a community. */
  readonly checksPerKey: number;
  /**
   * Runs `call` when its target's rate and a slot allow; waits for its turn at most `waitMs`
   * (the call's own time limit). Throws {@link OutboundRefusedError} (and records it) when refused.
   */
  run<T>(kind: OutboundKind, url: string, call: () => Promise<T>, waitMs: number): Promise<T>;
  /**
   * POSTs JSON through the gate; a refused call comes back as an answer with `error` set and
   * `refused: true`, never thrown.
   */
  post(
    kind: OutboundKind,
    url: string,
    options: PostJsonOptions,
  ): Promise<ObservedAnswer & { refused?: true }>;
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
 * The outbound gate, so that one request cannot make the mock flood a URL of its choice, and one
 * key holder cannot starve members: members' calls (claims, deliveries) and automatic endpoint
 * checks go through two lanes, each with its own concurrency bound and its own bucket per target.
 * A call over its target's rate waits its turn, at most its own time limit; what is refused is
 * recorded.
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
  const checkConcurrency = positiveInteger('checkConcurrency', options.checkConcurrency, 4);
  const checksPerKey = positiveInteger('checksPerKey', options.checksPerKey, 50);
  const clock = options.clock ?? systemClock;
  const members = {
    slots: createSlots(concurrency, maxWaiting),
    rate: createTargetRate({ perSecond, burst }, clock),
  };
  // Checks wait in their own queue (one per key holder, see endpoint checks): bounded there.
  const checks = {
    slots: createSlots(checkConcurrency),
    rate: createTargetRate(
      { perSecond: Math.max(1, perSecond / 10), burst: Math.max(1, Math.floor(burst / 10)) },
      clock,
    ),
  };
  const journal = createRecentRecords<OutboundRefusal, 'kind'>(
    positiveInteger('journalSize', options.journalSize, 1000),
  );
  const refuse = (kind: OutboundKind, target: string, reason: string): never => {
    journal.record({ at: platformClock.now().toISOString(), kind, target, reason });
    throw new OutboundRefusedError(`not sent: ${reason}`);
  };

  const run: Outbound['run'] = async (kind, url, call, waitMs) => {
    const target = targetOf(url);
    const gate = kind === 'endpoint-check' ? checks : members;
    const rate = gate.rate.describe();
    if (!(await gate.rate.wait(target, waitMs))) {
      refuse(
        kind,
        target,
        `the mock sends at most ${rate.perSecond} calls per second to ${target} (burst ${rate.burst}), and this one could not go within ${waitMs} ms`,
      );
    }
    if (gate.slots.full()) {
      refuse(
        kind,
        target,
        `${maxWaiting} outgoing calls are already waiting for one of ${gate.slots.size} slots`,
      );
    }
    return gate.slots.run(call);
  };

  return {
    checksPerKey,
    run,
    async post(kind, url, postOptions) {
      try {
        return await run(kind, url, () => postJson(url, postOptions), postOptions.timeoutMs);
      } catch (error) {
        if (!(error instanceof OutboundRefusedError)) throw error;
        return { elapsedMs: 0, error: error.message, refused: true };
      }
    },
    refusals: () => journal.list(),
    clearRefusals: () => journal.clear(),
  };
}

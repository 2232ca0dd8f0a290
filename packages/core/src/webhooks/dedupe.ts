import type { MaybePromise } from '../maybe-promise.js';
import { readNumberOption } from '../options.js';

/**
 * What {@link WebhookDedupe.claim} found: `claimed` (the caller holds the event and runs its
 * handler), `done` (handled already), or `busy` (claimed by another delivery whose handler has not
 * settled yet).
 */
export type DedupeClaim = 'claimed' | 'done' | 'busy';

/**
 * Where a webhook receiver keeps the state of each event id. Deliveries come at least once
 * (retries and replays repeat the id, and copies may arrive at once), so the receiver claims the
 * id atomically before the handler runs, marks it done when the handler succeeds, and releases it
 * when the handler fails, so that the platform's retry runs it. A store that throws or rejects
 * makes the receiver answer 500: it never runs a handler unguarded.
 *
 * Implement it over any store with an atomic "set if absent, with expiry" (Redis `SET NX PX`,
 * a SQL unique key, a Durable Object). `token` is unique per claim: `release` must only remove a
 * claim that still holds it, so that a claim expired and taken over elsewhere stays.
 */
export interface WebhookDedupe {
  /** Claims `id` with `token` unless it is done or claimed already, atomically. */
  claim(id: string, token: string): MaybePromise<DedupeClaim>;
  /** The handler succeeded: `id` is done (kept for the store's done lifetime). */
  done(id: string, token: string): MaybePromise<void>;
  /** The handler failed: forget the claim on `id` if it still holds `token`. */
  release(id: string, token: string): MaybePromise<void>;
}

/** Lifetimes shared by the dedupe stores. */
export interface DedupeLifetimes {
  /**
   * How long a done id is remembered, in ms; default 7 days, longer than the platform's retries.
   */
  doneTtlMs?: number;
  /**
   * How long a claim holds without being marked done or released, in ms (an instance that
   * crashed mid-handler); default 5 minutes, shorter than the platform's first retry (about 10).
   */
  claimTtlMs?: number;
}

/** Options of {@link createMemoryDedupe}. */
export interface MemoryDedupeOptions extends DedupeLifetimes {
  /** Ids kept at most (the oldest are forgotten first); default 10,000. */
  maxIds?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_DONE_TTL_MS = 7 * DAY_MS;
const DEFAULT_CLAIM_TTL_MS = 5 * 60 * 1000;

/** The lifetimes with their defaults, checked; `where` names the factory the user called. */
export function readLifetimes(options: DedupeLifetimes, where: string): Required<DedupeLifetimes> {
  return {
    doneTtlMs: readNumberOption(`${where}: doneTtlMs`, options.doneTtlMs, DEFAULT_DONE_TTL_MS, {
      min: 1,
      max: 365 * DAY_MS,
      integer: true,
    }),
    claimTtlMs: readNumberOption(`${where}: claimTtlMs`, options.claimTtlMs, DEFAULT_CLAIM_TTL_MS, {
      min: 1,
      max: DAY_MS,
      integer: true,
    }),
  };
}

/**
 * The default store: event ids in this process's memory. Right for one long-lived instance only:
 * on Workers, serverless functions or several replicas each instance has its own memory, so a
 * retry that reaches another one runs the handler again; there, use a shared store such as
 * {@link createRedisDedupe}.
 *
 * @example
 * const dedupe = createMemoryDedupe({ maxIds: 50_000 });
 */
export function createMemoryDedupe(options: MemoryDedupeOptions = {}): WebhookDedupe {
  const maxIds = readNumberOption('createMemoryDedupe: maxIds', options.maxIds, 10_000, {
    min: 1,
    max: 10_000_000,
    integer: true,
  });
  const { doneTtlMs, claimTtlMs } = readLifetimes(options, 'createMemoryDedupe');
  // token null: done. Insertion order is age order: each write moves the id to the end.
  const entries = new Map<string, { token: string | null; expiresAt: number }>();
  const put = (id: string, token: string | null, ttlMs: number) => {
    entries.delete(id);
    entries.set(id, { token, expiresAt: Date.now() + ttlMs });
    if (entries.size > maxIds) entries.delete(entries.keys().next().value!);
  };
  return {
    claim(id, token) {
      const entry = entries.get(id);
      if (entry && entry.expiresAt > Date.now()) return entry.token === null ? 'done' : 'busy';
      put(id, token, claimTtlMs);
      return 'claimed';
    },
    done: (id) => put(id, null, doneTtlMs),
    release(id, token) {
      if (entries.get(id)?.token === token) entries.delete(id);
    },
  };
}

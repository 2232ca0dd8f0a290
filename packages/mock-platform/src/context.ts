import type { RateLimiter } from './auth/rate-limit.js';
import type { MemberTokens } from './auth/tokens.js';
import type { Clock } from './clock.js';
import type { ReferralCodes } from './referral-codes.js';
import type { ServedRequests } from './served-requests.js';
import type { DecidedReview } from './service/reviews.js';
import type { CommunityRecord, QuestRecord, UserRecord } from './store/records.js';
import type { ReviewerRecord } from './store/reviews.js';
import type { Store } from './store/store.js';

/** Settings the routes read. */
export interface MockSettings {
  /** How long a quest's claimCounter may stay stale, in ms. */
  claimCounterRefreshMs: number;
  /** Most webhooks per community. */
  maxWebhooksPerCommunity: number;
  /** The event types a webhook may subscribe to (the event-types route lists them). */
  eventTypes: readonly string[];
  /** Lifetime of the member tokens the mock issues, in seconds. */
  tokenTtlSeconds: number;
  /** Check each answer against its core schema; a mismatch is a 500 and reaches onError. */
  validateResponses: boolean;
  /** Where internal errors go. */
  onError: (error: unknown) => void;
}

/**
 * Everything a route module needs: the store, the clock and the services. Part of the extension
 * surface: the service side (claims, connect, deliveries) is built on the same context.
 */
export interface MockContext {
  store: Store;
  clock: Clock;
  tokens: MemberTokens;
  rateLimiter: RateLimiter;
  journal: ServedRequests;
  /** Members' referral codes, keyed with the platform's secret. */
  referralCodes: ReferralCodes;
  settings: MockSettings;
  /** What the service side wants to hear of (set by `createService`). */
  hooks?: MockHooks;
}

/** Events of the public API that the service side reacts to. */
export interface MockHooks {
  /**
   * A quest was created through the public API (starts the automatic endpoint checks), by the
   * key holder `by` (a principal's label: `key:<id>` or `member:<id>`, never a secret).
   */
  questCreated?(quest: QuestRecord, by: string): void;
  /** Reviews decided claims (webhook events: QUEST_SUCCEEDED, QUEST_FAILED, QUEST_CLAIM_STATUS_UPDATED). */
  reviewsDecided?(
    community: CommunityRecord,
    decided: readonly DecidedReview[],
    reviewer: ReviewerRecord,
  ): void;
  /** A member was banned (webhook event USER_BANNED). */
  memberBanned?(community: CommunityRecord, user: UserRecord): void;
}

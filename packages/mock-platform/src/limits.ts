// The mock's own numbers, where the contract gives none. The contract's limits are core's
// constants (`@questkit/core` limits.ts); these complete them and are documented in the README.

/** Quests per page of the quest list when `limit` is absent (the contract gives only a maximum). */
export const QUEST_LIST_LIMIT_DEFAULT = 20;
/** Webhooks per page of the webhook list when `limit` is absent. */
export const WEBHOOK_LIST_LIMIT_DEFAULT = 20;
/** Most webhooks one community may have; one more is a 409. */
export const MAX_WEBHOOKS_PER_COMMUNITY = 100;
/** Largest request body accepted, in bytes; larger is a 400. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Requests per second per credential (token bucket refill rate and burst). */
export const DEFAULT_RATE_LIMIT_PER_SECOND = 50;
/** Lifetime of a member token the mock issues, in seconds. */
export const DEFAULT_TOKEN_TTL_SECONDS = 24 * 3600;
/** Requests kept in the journal (`platform.requests()`). */
export const DEFAULT_JOURNAL_SIZE = 1000;

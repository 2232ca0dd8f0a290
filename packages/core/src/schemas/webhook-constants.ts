// The webhook event types as data, apart from any schema: the webhook receiver on the main entry
// checks its handlers' names against them without loading the API's classic zod schemas.

/**
 * The webhook event types: `JOINED_COMMUNITY` is the one the contract names; the others are the
 * ones receivers written against the real platform handle (platform-docs-notes.md §3).
 */
export const WEBHOOK_EVENT_TYPES = [
  'JOINED_COMMUNITY',
  'LEFT_COMMUNITY',
  'QUEST_SUCCEEDED',
  'QUEST_CLAIMED',
  'QUEST_FAILED',
  'QUEST_CLAIM_STATUS_UPDATED',
  'SPRINT_STARTED',
  'SPRINT_ENDED',
  'USER_BANNED',
] as const;

// Every number of the contract's Limits table, named once so the schemas, the mock platform and
// the docs cannot drift apart. The verification endpoint's 10 s response time is
// `PLATFORM_TIMEOUT_MS` in `verification.ts`. Each constant has its literal type (`1000`, not
// `number`), as `as const` would give.

/** Lowest `page` of the invite list (the parameter is required). */
export const INVITE_PAGE_MIN = 1;
/** Highest `page` of the invite list. */
export const INVITE_PAGE_MAX = 1000;
/** Lowest `page_size` of the invite list: the contract gives only a maximum; an empty page is useless. */
export const INVITE_PAGE_SIZE_MIN = 1;
/** Highest `page_size` of the invite list. */
export const INVITE_PAGE_SIZE_MAX = 100;
/** `page_size` of the invite list when the caller gives none. */
export const INVITE_PAGE_SIZE_DEFAULT = 10;

/** Lowest `limit` of the quest list: the contract gives only a maximum; zero items is useless. */
export const QUEST_LIST_LIMIT_MIN = 1;
/** Highest `limit` of the quest list. */
export const QUEST_LIST_LIMIT_MAX = 100;

/** Lowest `limit` of the webhook list. */
export const WEBHOOK_LIST_LIMIT_MIN = 1;
/** Highest `limit` of the webhook list. */
export const WEBHOOK_LIST_LIMIT_MAX = 100;
/** Longest `cursor` of the webhook list, in characters. */
export const WEBHOOK_LIST_CURSOR_MAX_LENGTH = 100;

/** Lowest `limit` of the webhook delivery-record list. */
export const WEBHOOK_EVENTS_LIMIT_MIN = 1;
/** Highest `limit` of the webhook delivery-record list. */
export const WEBHOOK_EVENTS_LIMIT_MAX = 100;
/** `limit` of the webhook delivery-record list when the caller gives none. */
export const WEBHOOK_EVENTS_LIMIT_DEFAULT = 100;
/** Lowest `page` of the webhook delivery-record list (pages count from 0 there). */
export const WEBHOOK_EVENTS_PAGE_MIN = 0;
/** Highest `page` of the webhook delivery-record list. */
export const WEBHOOK_EVENTS_PAGE_MAX = 1000;
/** `page` of the webhook delivery-record list when the caller gives none. */
export const WEBHOOK_EVENTS_PAGE_DEFAULT = 0;

/** Shortest webhook `name` on create and update. */
export const WEBHOOK_NAME_MIN_LENGTH = 1;

/** Longest quest `name` on creation, in characters. */
export const QUEST_NAME_MAX_LENGTH = 100;
/** Lowest quest `position`: the contract gives only a maximum; positions are ordinals. */
export const QUEST_POSITION_MIN = 0;
/** Highest quest `position` on creation. */
export const QUEST_POSITION_MAX = 5000;
/**
 * Most tasks of one quest on creation. Not in the contract's table: questkit's bound, so that one
 * creation cannot make a platform (the mock) check thousands of endpoints.
 */
export const QUEST_TASKS_MAX = 50;
/** Lowest quest `claimLimit`: the contract gives only a maximum; 0 is the default. */
export const QUEST_CLAIM_LIMIT_MIN = 0;
/** Highest quest `claimLimit` (the largest signed 32-bit integer). */
export const QUEST_CLAIM_LIMIT_MAX = 2_147_483_647;
/** Quest `claimLimit` when the creator gives none. */
export const QUEST_CLAIM_LIMIT_DEFAULT = 0;

/** Longest time a quest's `claimCounter` may be stale: it is a cache refreshed every hour. */
export const CLAIM_COUNTER_REFRESH_MS = 3_600_000;

/** Lowest `page` of the leaderboard (the parameter is required; pages count from 1). */
export const LEADERBOARD_PAGE_MIN = 1;
/** Highest `page` of the leaderboard: the contract gives none; the invite list's bound. */
export const LEADERBOARD_PAGE_MAX = 100_000;
/** Lowest `limit` of the leaderboard. */
export const LEADERBOARD_LIMIT_MIN = 1;
/** Highest `limit` of the leaderboard (the platform's clients say at most 100). */
export const LEADERBOARD_LIMIT_MAX = 100;

/** Most xp one entry adds or removes (the largest signed 32-bit integer, as claimLimit). */
export const XP_ENTRY_MAX = 2_147_483_647;
/** Longest XP entry `label`, in characters (the contract gives none). */
export const XP_LABEL_MAX_LENGTH = 256;
/** Longest XP entry `description` and ban `reason`, in characters (the contract gives none). */
export const XP_DESCRIPTION_MAX_LENGTH = 2_000;

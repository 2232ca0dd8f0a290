import type {
  InviteStatus,
  QuestCondition,
  QuestListReward,
  RichTextNode,
  TaskSettings,
  UserRole,
} from '@questkit/core/api';

// What the store keeps. Records hold the platform's state, not its answers: the routes turn them
// into the contract's response shapes (`serialize/`), so a state the contract hides (a user's
// restoredAt, a quest's live claim count) can still be kept, saved and restored.

/** The scopes of a community API key. */
export const API_KEY_SCOPES = ['read-only', 'read-write'] as const;
/** What an API key may do: read only, or read and write. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The states of a webhook delivery record. `success` is the one the contract names; the others
 * are the mock's: `pending` (not tried yet), `failed` (the last try failed, another is planned at
 * `retryAt`), `exhausted` (no try left).
 */
export const DELIVERY_STATUSES = ['pending', 'success', 'failed', 'exhausted'] as const;
/** The state of a webhook delivery record. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A community, addressed by its subdomain. */
export interface CommunityRecord {
  id: string;
  subdomain: string;
  name: string;
  image: string | null;
  description: string | null;
  sector: string | null;
  blockchain: string | null;
  type: string | null;
  /** xp an invited member must reach before the invite becomes `active` (until then `pending`). */
  inviteMinXp: number;
  /** The community secret of the identity-connect flow (HMAC-SHA256 key). */
  connectSecret: string;
  /** When the secret was created (`POST /secrets`); absent: with the community. */
  connectSecretCreatedAt?: string;
  createdAt: string;
}

/** A community API key, sent in `x-api-key`. */
export interface ApiKeyRecord {
  id: string;
  communityId: string;
  /** The key itself: a secret, compared in constant time, never logged. */
  key: string;
  scope: ApiKeyScope;
  /** A label for people ("demo read-write"). */
  name: string;
  createdAt: string;
}

/** A module: a group of quests. A quest's `categoryId` is the id of its module. */
export interface ModuleRecord {
  id: string;
  communityId: string;
  name: string;
  description: string | null;
  color: string | null;
  coverUrl: string | null;
  position: number;
}

/** A member of a community. */
export interface UserRecord {
  id: string;
  communityId: string;
  avatar: string | null;
  name: string | null;
  email: string | null;
  /** The address of the wallet the member authenticated with (`accounts.wallet`). */
  connectedWallet: string | null;
  discordId: string | null;
  discordHandle: string | null;
  twitterId: string | null;
  twitterUsername: string | null;
  tiktokUsername: string | null;
  /** Network name (`ethereum`, `polygon`, ...) to address, confirmed through a wallet connection. */
  verifiedBlockchainAddresses: Record<string, string>;
  /** Network name to address, typed by the member, not confirmed. */
  unVerifiedBlockchainAddresses: Record<string, string>;
  xp: number;
  rank: number;
  level: number;
  karma: number;
  /** Review counts: flags and stars the member's contributions received. */
  flags: number;
  stars: number;
  role: UserRole | null;
  isBanned: boolean;
  banReason: string | null;
  referrerUrl: string | null;
  referrerId: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  restoredAt: string | null;
}

/** Whether a member is banned: a ban sets both the flag and the role, a seed or fixture may set either. */
export function isBanned(user: Pick<UserRecord, 'isBanned' | 'role'>): boolean {
  return user.isBanned || user.role === 'banned';
}

/** An invite: `inviterId` invited `userId`. */
export interface InviteRecord {
  communityId: string;
  inviterId: string;
  userId: string;
  status: InviteStatus;
  joinedAt: string;
  /** The quest the invite was counted for (the `invitesQuestId` filter), if any. */
  questId: string | null;
}

/**
 * What one member did with one quest, as the claim rules read it: how many claims succeeded and
 * when the last one did (recurrence, quest conditions), when the last verification failed
 * (`retryAfter`).
 */
export interface ClaimRecord {
  communityId: string;
  userId: string;
  questId: string;
  /** Successful claims. */
  claims: number;
  lastClaimedAt: string | null;
  /** The last claim whose verification did not pass (not verified, or an endpoint fault). */
  lastFailedAt: string | null;
}

/** A task of a quest. */
export interface QuestTaskRecord {
  id: string;
  type: string;
  metadata: Record<string, unknown> | null;
  settings: TaskSettings;
}

/** A quest of a community. */
export interface QuestRecord {
  id: string;
  communityId: string;
  /** The id of the quest's module. */
  categoryId: string;
  name: string;
  description: RichTextNode | null;
  deleted: boolean;
  archived: boolean;
  published: boolean;
  autoValidate: boolean;
  conditionOperator: string;
  conditions: QuestCondition[];
  recurrence: string;
  retryAfter: number | null;
  rewards: QuestListReward[];
  tasks: QuestTaskRecord[];
  claimLimit: number;
  position: number | null;
  sprintId: string | null;
  isAutomaticWhenEmpty: boolean;
  /** Whether claims are reviewed by AI first (set by the quest update; absent: false). */
  aiReview?: boolean;
  /** The AI reviewer's prompt (set by the quest update; absent: null). */
  aiPrompt?: string | null;
  /** The live number of successful claims. */
  claimCount: number;
  /** The cached count the quest list shows; refreshed from `claimCount` at most once an interval. */
  claimCounter: number;
  /** When `claimCounter` was last refreshed; null when never. */
  claimCounterRefreshedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A webhook of a community. */
export interface WebhookRecord {
  id: string;
  communityId: string;
  name: string;
  uri: string;
  active: boolean;
  /** Sent in the body field `secret` of each delivery. */
  secret: string;
  events: string[];
  success: number;
  failed: number;
  exhausted: number;
  createdAt: string;
  updatedAt: string;
}

/** One delivery of one event to one webhook, with its tries. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  communityId: string;
  status: DeliveryStatus;
  eventType: string;
  tries: number;
  /** The payload POSTed to the webhook uri (without the secret). */
  payload: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When the next try is due; for a finished delivery, the time of its last try. */
  retryAt: string;
}

/** A member's identity-connect association, stored by the connect flow for one redirect URL. */
export interface ConnectionRecord {
  communityId: string;
  userId: string;
  /** Tasks sharing this redirect URL share the association. */
  redirectUrl: string;
  /** The community's own user id, sent as `accounts.svc-connect`. */
  identifier: string;
  createdAt: string;
}

/**
 * One change of a member's xp: added (positive) or removed (negative), by hand (`POST` and
 * `DELETE /users/{userId}/xp`), by a quest's reward (`questId` set) or by a review bonus.
 */
export interface XpEntryRecord {
  id: string;
  communityId: string;
  receiverId: string;
  xp: number;
  label: string;
  description: string | null;
  /** The quest whose reward this is; null for manual entries. Sprints count quests by it. */
  questId: string | null;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
}

/** A sprint: a period of a community whose xp makes its own leaderboard. */
export interface SprintRecord {
  id: string;
  communityId: string;
  name: string;
  description: string | null;
  image: string | null;
  color: string | null;
  rewards: RichTextNode | null;
  rewardZone: number | null;
  /** The quests whose xp counts; empty: every quest (and manual entries). */
  includedQuestsIds: string[];
  startingAt: string;
  endingAt: string;
  createdAt: string;
}

import type {
  ApiKeyRecord,
  ClaimRecord,
  CommunityRecord,
  ConnectionRecord,
  DeliveryRecord,
  InviteRecord,
  ModuleRecord,
  QuestRecord,
  SprintRecord,
  UserRecord,
  WebhookRecord,
  XpEntryRecord,
} from './records.js';
import type { ReviewEventRecord, ReviewRecord, ReviewStore } from './reviews.js';

// The store is synchronous on purpose: in one JavaScript thread a synchronous method runs to its
// end before any other request is served, so every write (check a uri is free, then insert) is
// atomic without locks. A persistent backend can keep this interface on an embedded synchronous
// database (node:sqlite).

/**
 * The identifiers a member can be found by, each indexed for O(1) lookup. `ethAddress` is the
 * connected wallet; `blockchainAddress` a verified address, on one network or any.
 */
export const USER_IDENTIFIER_KINDS = [
  'email',
  'ethAddress',
  'discordId',
  'discordHandle',
  'twitterId',
  'twitterUsername',
  'blockchainAddress',
] as const;
/** An identifier a member can be found by. */
export type UserIdentifierKind = (typeof USER_IDENTIFIER_KINDS)[number];

/** Communities, by id and by subdomain. */
export interface CommunityStore {
  /** The community with this id. */
  get(id: string): CommunityRecord | undefined;
  /** The community with this subdomain. */
  getBySubdomain(subdomain: string): CommunityRecord | undefined;
  /** Every community, in insertion order. */
  list(): readonly CommunityRecord[];
  /** Inserts or replaces. Throws a TypeError when another community has the subdomain. */
  put(record: CommunityRecord): void;
}

/** Community API keys. */
export interface ApiKeyStore {
  /** Every key of every community: few, so a constant-time scan over all of them is cheap. */
  list(): readonly ApiKeyRecord[];
  /** The keys of one community. */
  listByCommunity(communityId: string): readonly ApiKeyRecord[];
  /** Inserts or replaces. */
  put(record: ApiKeyRecord): void;
  /** Removes the key; false when unknown. */
  delete(id: string): boolean;
}

/** Modules of communities. */
export interface ModuleStore {
  /** The module with this id. */
  get(id: string): ModuleRecord | undefined;
  /** Ordered by position, then id. */
  listByCommunity(communityId: string): readonly ModuleRecord[];
  /** Inserts or replaces. */
  put(record: ModuleRecord): void;
}

/** Members, by id and by every identifier. */
export interface UserStore {
  /** The member with this id. */
  get(id: string): UserRecord | undefined;
  /**
   * The id of the member of `communityId` whose identifier of `kind` is `value` (case-insensitive
   * for emails, addresses, handles and usernames). `network` narrows `blockchainAddress`.
   */
  findIdByIdentifier(
    communityId: string,
    kind: UserIdentifierKind,
    value: string,
    network?: string,
  ): string | undefined;
  /**
   * Inserts or replaces, re-indexing the identifiers. Throws a TypeError when another member of the
   * community holds one of the identifiers: identifiers are unique within a community.
   */
  put(record: UserRecord): void;
  /** Members of the community that are not deleted. */
  countActive(communityId: string): number;
  /**
   * The all-time leaderboard: the community's members that are neither deleted nor banned, by
   * xp (highest first), then by id. A member's `rank` is their place in it.
   */
  listRanked(communityId: string): readonly UserRecord[];
  /** The member's place in {@link UserStore.listRanked} (1 is first); 0 when not on it (banned, deleted). */
  getRank(user: UserRecord): number;
  /** Every member of every community, in insertion order. */
  list(): Iterable<UserRecord>;
  readonly size: number;
}

/** Invites, by inviter. */
export interface InviteStore {
  /** Ordered by joinedAt, then the invited user's id. */
  listByInviter(inviterId: string): readonly InviteRecord[];
  /** Inserts or replaces the invite of (inviterId, userId). */
  put(record: InviteRecord): void;
  /** Every invite, in insertion order. */
  list(): Iterable<InviteRecord>;
}

/** Quests, by id and per community in list order. */
export interface QuestStore {
  /** The quest with this id. */
  get(id: string): QuestRecord | undefined;
  /** Ordered by createdAt, then id: the quest list's order. */
  listByCommunity(communityId: string): readonly QuestRecord[];
  /** Inserts or replaces. */
  put(record: QuestRecord): void;
  /** Changes some fields; false when the quest does not exist. */
  update(id: string, patch: Partial<Omit<QuestRecord, 'id' | 'communityId'>>): boolean;
}

/** Why a webhook write was refused. */
export type WebhookWriteConflict = 'uri-taken' | 'limit-reached';

/** The outcome of a webhook write. */
export type WebhookWriteResult =
  | { ok: true; record: WebhookRecord }
  | { ok: false; conflict: WebhookWriteConflict };

/** Webhooks, by id and per community in list order. */
export interface WebhookStore {
  /** The webhook with this id. */
  get(id: string): WebhookRecord | undefined;
  /** Ordered by createdAt, then id. */
  listByCommunity(communityId: string): readonly WebhookRecord[];
  /**
   * Inserts when the community has no webhook with the same uri and fewer than `maxPerCommunity`
   * webhooks; the check and the insert are one step.
   */
  create(record: WebhookRecord, maxPerCommunity: number): WebhookWriteResult;
  /** Changes some fields; refused when the new uri is another webhook's. Undefined when unknown. */
  update(
    id: string,
    patch: Partial<Omit<WebhookRecord, 'id' | 'communityId' | 'createdAt'>>,
  ): WebhookWriteResult | undefined;
  /** Removes the webhook and its delivery records; false when unknown. */
  delete(id: string): boolean;
}

/** Webhook delivery records. */
export interface DeliveryStore {
  /** The delivery record with this id. */
  get(id: string): DeliveryRecord | undefined;
  /** Ordered newest first (createdAt descending, then id descending). */
  listByWebhook(webhookId: string): readonly DeliveryRecord[];
  /** Inserts or replaces. */
  put(record: DeliveryRecord): void;
  /** Removes the records of one webhook; the count. */
  deleteByWebhook(webhookId: string): number;
  /** Every delivery record, in insertion order. */
  list(): Iterable<DeliveryRecord>;
}

/** Identity-connect associations. */
export interface ConnectionStore {
  /** The associations of one member. */
  listByUser(userId: string): readonly ConnectionRecord[];
  /** Inserts or replaces the association of (userId, redirectUrl). */
  put(record: ConnectionRecord): void;
  /** Removes the member's associations (only the one of `redirectUrl` when given); the count. */
  deleteByUser(userId: string, redirectUrl?: string): number;
  /** Every association, in insertion order. */
  list(): Iterable<ConnectionRecord>;
}

/** Claim histories, one per (member, quest). */
export interface ClaimStore {
  /** The claim history of (userId, questId). */
  get(userId: string, questId: string): ClaimRecord | undefined;
  /** Inserts or replaces the record of (userId, questId). */
  put(record: ClaimRecord): void;
  /** Every claim history, in insertion order. */
  list(): Iterable<ClaimRecord>;
}

/** XP entries, by member and by community, in the order they were made. */
export interface XpEntryStore {
  /** Ordered by createdAt, then id. */
  listByCommunity(communityId: string): readonly XpEntryRecord[];
  /** Ordered by createdAt, then id. */
  listByReceiver(userId: string): readonly XpEntryRecord[];
  /** Inserts (entries are never changed). */
  put(record: XpEntryRecord): void;
  /** Every entry, in insertion order. */
  list(): Iterable<XpEntryRecord>;
}

/** Sprints of communities. */
export interface SprintStore {
  /** The sprint with this id. */
  get(id: string): SprintRecord | undefined;
  /** Ordered by startingAt, then id. */
  listByCommunity(communityId: string): readonly SprintRecord[];
  /**
   * Inserts or replaces. Throws a TypeError when the sprint's dates overlap another sprint of the
   * community (at most one sprint runs at a time) or end before they start.
   */
  put(record: SprintRecord): void;
}

/** The whole state of a mock platform, as plain JSON: what `--fixtures` loads and `--save` writes. */
export interface StoreSnapshot {
  version: 1;
  communities: CommunityRecord[];
  apiKeys: ApiKeyRecord[];
  modules: ModuleRecord[];
  users: UserRecord[];
  invites: InviteRecord[];
  quests: QuestRecord[];
  webhooks: WebhookRecord[];
  deliveries: DeliveryRecord[];
  connections: ConnectionRecord[];
  /** Absent in fixtures written before claim rules: no claim yet. */
  claims?: ClaimRecord[];
  /** Absent in fixtures written before reviews: no review yet. */
  reviews?: ReviewRecord[];
  /** The reviews' events; absent with them. */
  reviewEvents?: ReviewEventRecord[];
  /** Absent in fixtures written before XP entries: none. */
  xpEntries?: XpEntryRecord[];
  /** Absent in fixtures written before sprints: none. */
  sprints?: SprintRecord[];
}

/** The state of the mock platform, by resource. */
export interface Store {
  readonly communities: CommunityStore;
  readonly apiKeys: ApiKeyStore;
  readonly modules: ModuleStore;
  readonly users: UserStore;
  readonly invites: InviteStore;
  readonly quests: QuestStore;
  readonly webhooks: WebhookStore;
  readonly deliveries: DeliveryStore;
  readonly connections: ConnectionStore;
  readonly claims: ClaimStore;
  readonly reviews: ReviewStore;
  readonly xpEntries: XpEntryStore;
  readonly sprints: SprintStore;
  /** A deep copy of the whole state. */
  snapshot(): StoreSnapshot;
  /**
   * A number that changes with every write, so that an answer made at one version is fresh while
   * the version stays. The mock keeps the JSON texts of its hottest answers only for a store that
   * has one (the memory store does); without it every answer is made anew.
   */
  readonly version?: number;
}

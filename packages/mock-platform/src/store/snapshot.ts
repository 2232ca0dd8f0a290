import {
  InviteStatusSchema,
  QuestConditionSchema,
  QuestListItemSchema,
  QuestListRewardSchema,
  RichTextNodeSchema,
  TaskSettingsSchema,
  UserRoleSchema,
  WebhookDeliveryRecordSchema,
  WebhookSchema,
} from '@questkit/core/api';
import * as z from 'zod';
import { API_KEY_SCOPES, DELIVERY_STATUSES } from './records.js';
import { ReviewEventRecordSchema, ReviewRecordSchema } from './reviews.js';
import type { Store, StoreSnapshot } from './store.js';

// The fixtures file format, checked when a file is loaded so a hand-edited fixture fails at
// start-up with the path of the bad field instead of as odd answers later. A field an answer shows
// as it is takes the answer's own schema (core's), so no record loads that an answer would refuse.

const timestamp = z.iso.datetime({ offset: true });
const nullableString = z.string().nullable();
const addresses = z.record(z.string(), z.string());
const count = z.number().int().min(0);

const CommunityRecordSchema = z.object({
  id: z.uuid(),
  subdomain: z.string().min(1),
  name: z.string(),
  image: nullableString,
  description: nullableString,
  sector: nullableString,
  blockchain: nullableString,
  type: nullableString,
  inviteMinXp: z.number().min(0),
  connectSecret: z.string().min(1),
  connectSecretCreatedAt: timestamp.optional(),
  createdAt: timestamp,
});

const ApiKeyRecordSchema = z.object({
  id: z.string().min(1),
  communityId: z.uuid(),
  key: z.string().min(1),
  scope: z.enum(API_KEY_SCOPES),
  name: z.string(),
  createdAt: timestamp,
});

const ModuleRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  name: z.string(),
  description: nullableString,
  color: nullableString,
  coverUrl: nullableString,
  position: z.number(),
});

const UserRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  avatar: nullableString,
  name: nullableString,
  email: nullableString,
  connectedWallet: nullableString,
  discordId: nullableString,
  discordHandle: nullableString,
  twitterId: nullableString,
  twitterUsername: nullableString,
  tiktokUsername: nullableString,
  verifiedBlockchainAddresses: addresses,
  unVerifiedBlockchainAddresses: addresses,
  xp: z.number(),
  rank: z.number(),
  level: z.number(),
  karma: z.number(),
  flags: count,
  stars: count,
  role: UserRoleSchema.nullable(),
  isBanned: z.boolean(),
  banReason: nullableString,
  referrerUrl: nullableString,
  referrerId: nullableString,
  createdAt: timestamp,
  updatedAt: timestamp,
  deletedAt: timestamp.nullable(),
  restoredAt: timestamp.nullable(),
});

const InviteRecordSchema = z.object({
  communityId: z.uuid(),
  inviterId: z.uuid(),
  userId: z.uuid(),
  status: InviteStatusSchema,
  joinedAt: timestamp,
  questId: z.uuid().nullable(),
});

const QuestRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  categoryId: z.uuid(),
  name: z.string(),
  description: RichTextNodeSchema.nullable(),
  deleted: z.boolean(),
  archived: z.boolean(),
  published: z.boolean(),
  autoValidate: z.boolean(),
  conditionOperator: z.string(),
  conditions: z.array(QuestConditionSchema),
  recurrence: z.string(),
  retryAfter: z.number().nullable(),
  rewards: z.array(QuestListRewardSchema),
  tasks: z.array(
    z.object({
      id: z.uuid(),
      type: z.string(),
      metadata: z.record(z.string(), z.unknown()).nullable(),
      settings: TaskSettingsSchema,
    }),
  ),
  claimLimit: QuestListItemSchema.shape.claimLimit,
  position: z.number().nullable(),
  sprintId: z.uuid().nullable(),
  isAutomaticWhenEmpty: z.boolean(),
  aiReview: z.boolean().optional(),
  aiPrompt: nullableString.optional(),
  claimCount: count,
  claimCounter: count,
  claimCounterRefreshedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const WebhookRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  name: z.string().min(1),
  uri: WebhookSchema.shape.uri,
  active: z.boolean(),
  secret: z.string(),
  events: WebhookSchema.shape.events,
  success: count,
  failed: count,
  exhausted: count,
  createdAt: timestamp,
  updatedAt: timestamp,
});

const DeliveryRecordSchema = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  communityId: z.uuid(),
  status: z.enum(DELIVERY_STATUSES),
  eventType: WebhookDeliveryRecordSchema.shape.eventType,
  tries: count,
  payload: z.record(z.string(), z.unknown()),
  createdAt: timestamp,
  updatedAt: timestamp,
  retryAt: timestamp,
});

const ConnectionRecordSchema = z.object({
  communityId: z.uuid(),
  userId: z.uuid(),
  redirectUrl: z.string(),
  identifier: z.string(),
  createdAt: timestamp,
});

const ClaimRecordSchema = z.object({
  communityId: z.uuid(),
  userId: z.uuid(),
  questId: z.uuid(),
  claims: count,
  lastClaimedAt: timestamp.nullable(),
  lastFailedAt: timestamp.nullable(),
});

const XpEntryRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  receiverId: z.uuid(),
  xp: z.int(),
  label: z.string(),
  description: nullableString,
  questId: z.uuid().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  deleted: z.boolean(),
});

const SprintRecordSchema = z.object({
  id: z.uuid(),
  communityId: z.uuid(),
  name: z.string(),
  description: nullableString,
  image: nullableString,
  color: nullableString,
  rewards: RichTextNodeSchema.nullable(),
  rewardZone: count.nullable(),
  includedQuestsIds: z.array(z.uuid()),
  startingAt: timestamp,
  endingAt: timestamp,
  createdAt: timestamp,
});

/** The schema of a fixtures file (a {@link StoreSnapshot}). */
export const StoreSnapshotSchema = z.object({
  version: z.literal(1),
  communities: z.array(CommunityRecordSchema),
  apiKeys: z.array(ApiKeyRecordSchema),
  modules: z.array(ModuleRecordSchema),
  users: z.array(UserRecordSchema),
  invites: z.array(InviteRecordSchema),
  quests: z.array(QuestRecordSchema),
  webhooks: z.array(WebhookRecordSchema),
  deliveries: z.array(DeliveryRecordSchema),
  connections: z.array(ConnectionRecordSchema),
  claims: z.array(ClaimRecordSchema).optional(),
  reviews: z.array(ReviewRecordSchema).optional(),
  reviewEvents: z.array(ReviewEventRecordSchema).optional(),
  xpEntries: z.array(XpEntryRecordSchema).optional(),
  sprints: z.array(SprintRecordSchema).optional(),
});

/**
 * Checks parsed fixtures JSON and returns it as a snapshot. Throws a TypeError naming the first bad
 * field: fixtures are configuration, so a bad one stops the start.
 */
export function parseSnapshot(json: unknown): StoreSnapshot {
  const result = StoreSnapshotSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new TypeError(
      `[@questkit/mock-platform] invalid fixtures at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  return result.data as StoreSnapshot;
}

/**
 * Writes a snapshot's records into a store, in an order that puts what a record refers to first.
 * Throws a TypeError when two webhooks of a community share a uri.
 */
export function loadSnapshot(store: Store, snapshot: StoreSnapshot): void {
  for (const community of snapshot.communities) store.communities.put(community);
  for (const key of snapshot.apiKeys) store.apiKeys.put(key);
  for (const module of snapshot.modules) store.modules.put(module);
  for (const user of snapshot.users) store.users.put(user);
  for (const invite of snapshot.invites) store.invites.put(invite);
  for (const quest of snapshot.quests) store.quests.put(quest);
  for (const webhook of snapshot.webhooks) {
    const result = store.webhooks.create(webhook, Number.POSITIVE_INFINITY);
    if (!result.ok) {
      throw new TypeError(
        `[@questkit/mock-platform] webhook ${webhook.id} has the uri of another webhook`,
      );
    }
  }
  for (const delivery of snapshot.deliveries) store.deliveries.put(delivery);
  for (const connection of snapshot.connections) store.connections.put(connection);
  for (const claim of snapshot.claims ?? []) store.claims.put(claim);
  for (const review of snapshot.reviews ?? []) store.reviews.put(review);
  for (const event of snapshot.reviewEvents ?? []) store.reviews.addEvent(event);
  for (const entry of snapshot.xpEntries ?? []) store.xpEntries.put(entry);
  for (const sprint of snapshot.sprints ?? []) store.sprints.put(sprint);
}

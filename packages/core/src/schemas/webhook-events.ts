import * as z from 'zod/mini';

// The body of a webhook delivery as receivers written against the real platform read it
// (platform-docs-notes.md §3): `{id, type, data, time, secret}`, with `community`, `user` and
// `quest` nested under `data`. The receiver checks `secret` and drops it before parsing.
// Sprint and ban `data` are shown nowhere: `{community, sprint}` and `{community, user, reason}`
// are our choice, written in the mock platform's conventions table.

/**
 * An object that keeps unknown keys at run time (the platform may add fields) but whose type
 * names only the fields the platform sends, so reading any other one is a type error.
 */
function sent<S extends z.core.$ZodLooseShape>(shape: S): z.ZodMiniObject<S, z.core.$strip> {
  return z.looseObject(shape) as unknown as z.ZodMiniObject<S, z.core.$strip>;
}

/** The community an event happened in. */
export const WebhookCommunitySchema = sent({
  id: z.string(),
  name: z.string(),
  subdomain: z.string(),
  /** Nullable as the contract's community `blockchain` is (§3 does not say). */
  blockchain: z.nullable(z.string()),
  discord: z.nullable(z.string()),
  twitter: z.nullable(z.string()),
  website: z.nullable(z.string()),
});
/** The community an event happened in. */
export type WebhookCommunity = z.infer<typeof WebhookCommunitySchema>;

/** The member an event is about, with the accounts they linked. */
export const WebhookUserSchema = sent({
  id: z.string(),
  name: z.nullable(z.string()),
  twitter: z.nullable(sent({ id: z.string(), username: z.string() })),
  discord: z.nullable(sent({ id: z.string(), handle: z.string() })),
  email: z.nullable(z.string()),
  /** Addresses by blockchain network name, e.g. `{ ethereum: '0x…' }`. */
  addresses: z.record(z.string(), z.string()),
});
/** The member an event is about, with the accounts they linked. */
export type WebhookUser = z.infer<typeof WebhookUserSchema>;

/** A quest an event is about. */
export const WebhookQuestSchema = sent({
  id: z.string(),
  name: z.string(),
  categoryId: z.string(),
  categoryName: z.nullable(z.string()),
  xp: z.nullable(z.number()),
  published: z.nullable(z.boolean()),
  autoValidate: z.nullable(z.boolean()),
  tasks: z.array(sent({ id: z.string(), type: z.string() })),
  /** Null until someone reviewed a claim of it (our choice: shown nowhere). */
  lastReviewerId: z.nullable(z.string()),
});
/** A quest an event is about. */
export type WebhookQuest = z.infer<typeof WebhookQuestSchema>;

/**
 * What the member gave for one task of the claim: `input` is `{}`, `{value}`, `{values}`,
 * `{fileUrls}` or `{tweetId}` by the task's type.
 */
export const WebhookTaskInputSchema = sent({
  taskId: z.string(),
  taskType: z.string(),
  input: sent({
    value: z.optional(z.union([z.string(), z.number()])),
    values: z.optional(z.array(z.string())),
    fileUrls: z.optional(z.array(z.string())),
    tweetId: z.optional(z.string()),
  }),
});
/** What the member gave for one task of the claim. */
export type WebhookTaskInput = z.infer<typeof WebhookTaskInputSchema>;

/** The sprint a sprint event is about: the fields of the sprint list that a receiver needs. */
export const WebhookSprintSchema = sent({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  /** The quests whose xp counts; empty means every quest. */
  includedQuestsIds: z.array(z.string()),
  startingAt: z.string(),
  endingAt: z.string(),
});
/** The sprint a sprint event is about. */
export type WebhookSprint = z.infer<typeof WebhookSprintSchema>;

/** `data` of `JOINED_COMMUNITY` and `LEFT_COMMUNITY`. */
export const MemberEventDataSchema = sent({
  community: WebhookCommunitySchema,
  user: WebhookUserSchema,
});
/** `data` of `JOINED_COMMUNITY` and `LEFT_COMMUNITY`. */
export type MemberEventData = z.infer<typeof MemberEventDataSchema>;

const questEvent = {
  community: WebhookCommunitySchema,
  user: WebhookUserSchema,
  quest: WebhookQuestSchema,
  /** What the member gave for the quest's tasks, when the claim had inputs. */
  taskInputs: z.optional(z.array(WebhookTaskInputSchema)),
};

/** `data` of `QUEST_CLAIMED`, `QUEST_SUCCEEDED` and `QUEST_FAILED`. */
export const QuestEventDataSchema = sent(questEvent);
/** `data` of `QUEST_CLAIMED`, `QUEST_SUCCEEDED` and `QUEST_FAILED`. */
export type QuestEventData = z.infer<typeof QuestEventDataSchema>;

/** `data` of `QUEST_CLAIM_STATUS_UPDATED`: a review changed a decided claim. */
export const QuestClaimStatusUpdatedDataSchema = sent({
  ...questEvent,
  /** The claim's status now: `success`, `fail` or `pending`. */
  status: z.string(),
});
/** `data` of `QUEST_CLAIM_STATUS_UPDATED`. */
export type QuestClaimStatusUpdatedData = z.infer<typeof QuestClaimStatusUpdatedDataSchema>;

/** `data` of `SPRINT_STARTED` and `SPRINT_ENDED`. */
export const SprintEventDataSchema = sent({
  community: WebhookCommunitySchema,
  sprint: WebhookSprintSchema,
});
/** `data` of `SPRINT_STARTED` and `SPRINT_ENDED`. */
export type SprintEventData = z.infer<typeof SprintEventDataSchema>;

/** `data` of `USER_BANNED`. */
export const UserBannedDataSchema = sent({
  community: WebhookCommunitySchema,
  user: WebhookUserSchema,
  /** The reason given to the ban, null when none was. */
  reason: z.nullable(z.string()),
});
/** `data` of `USER_BANNED`. */
export type UserBannedData = z.infer<typeof UserBannedDataSchema>;

/**
 * Any webhook event type name, known or not: upper snake case. The complete list is not in the
 * contract, so an event type added later by the platform must still pass.
 */
export const EventTypeSchema = z
  .string()
  .check(
    z.regex(/^[A-Z][A-Z0-9_]*$/),
    z.describe('An event type in upper snake case, e.g. JOINED_COMMUNITY.'),
  );

const envelope = {
  /** The event id: the same on every retry and replay of this event. */
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  /** When the event happened, in milliseconds since the epoch. */
  time: z.number(),
};

const event = <T extends string, D extends z.ZodMiniType>(type: T, data: D) =>
  sent({ ...envelope, type: z.literal(type), data });

/** A delivered event of a known type, typed by its `type`. */
export const KnownWebhookEventSchema = z.discriminatedUnion('type', [
  event('JOINED_COMMUNITY', MemberEventDataSchema),
  event('LEFT_COMMUNITY', MemberEventDataSchema),
  event('QUEST_CLAIMED', QuestEventDataSchema),
  event('QUEST_SUCCEEDED', QuestEventDataSchema),
  event('QUEST_FAILED', QuestEventDataSchema),
  event('QUEST_CLAIM_STATUS_UPDATED', QuestClaimStatusUpdatedDataSchema),
  event('SPRINT_STARTED', SprintEventDataSchema),
  event('SPRINT_ENDED', SprintEventDataSchema),
  event('USER_BANNED', UserBannedDataSchema),
]);
/** A delivered event of a known type, typed by its `type`. */
export type KnownWebhookEvent = z.infer<typeof KnownWebhookEventSchema>;

/** Any delivered event: the envelope, with `data` of any shape. */
export const WebhookEventSchema = sent({
  ...envelope,
  type: EventTypeSchema,
  data: z.record(z.string(), z.unknown()),
});
/** Any delivered event: the envelope, with `data` of any shape. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** The event of a known type `T`. */
export type WebhookEventOf<T extends KnownWebhookEvent['type']> = Extract<
  KnownWebhookEvent,
  { type: T }
>;

import * as z from 'zod';
import { EventTypeSchema } from './webhooks.js';

// The body of a webhook delivery, by the mock platform's convention (the contract shows no
// payload): the event, plus the webhook's `secret` that the receiver checks and then drops.
// Unknown keys are kept: the platform may add fields.

const envelope = {
  /** The event id: the same on every retry and replay of this event. */
  id: z.string().min(1).max(200),
  createdAt: z.string(),
  communityId: z.string(),
  subdomain: z.string(),
};

/** `data` of `JOINED_COMMUNITY`: a member joined the community. */
export const JoinedCommunityDataSchema = z.looseObject({
  userId: z.string(),
  name: z.string().nullable(),
  referrerId: z.string().nullable(),
  joinedAt: z.string(),
});

/** `data` of `QUEST_CLAIMED`: a member claimed a quest. */
export const QuestClaimedDataSchema = z.looseObject({
  questId: z.string(),
  questName: z.string(),
  userId: z.string(),
  requestId: z.string(),
  xp: z.number(),
});

/** `data` of `QUEST_CLAIM_FAILED`: a claim was refused or failed. */
export const QuestClaimFailedDataSchema = z.looseObject({
  questId: z.string(),
  questName: z.string(),
  userId: z.string(),
  requestId: z.string(),
  status: z.string(),
  reason: z.string(),
  message: z.string(),
});

/** A delivered event of a known type, typed by its `type`. */
export const KnownWebhookEventSchema = z.discriminatedUnion('type', [
  z.looseObject({
    ...envelope,
    type: z.literal('JOINED_COMMUNITY'),
    data: JoinedCommunityDataSchema,
  }),
  z.looseObject({ ...envelope, type: z.literal('QUEST_CLAIMED'), data: QuestClaimedDataSchema }),
  z.looseObject({
    ...envelope,
    type: z.literal('QUEST_CLAIM_FAILED'),
    data: QuestClaimFailedDataSchema,
  }),
]);
/** A delivered event of a known type, typed by its `type`. */
export type KnownWebhookEvent = z.infer<typeof KnownWebhookEventSchema>;

/** Any delivered event: the envelope, with `data` of any shape. */
export const WebhookEventSchema = z.looseObject({
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

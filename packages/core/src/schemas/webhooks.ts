import * as z from 'zod';
import { count, dateTime, httpUrl } from './fields.js';
import { WEBHOOK_NAME_MIN_LENGTH } from './limits.js';

/**
 * The webhook event types we know: `JOINED_COMMUNITY` is the one the contract names;
 * `QUEST_CLAIMED` and `QUEST_CLAIM_FAILED` are documented additions of the questkit mock platform.
 */
export const WEBHOOK_EVENT_TYPES = [
  'JOINED_COMMUNITY',
  'QUEST_CLAIMED',
  'QUEST_CLAIM_FAILED',
] as const;

/** One of the webhook event types in {@link WEBHOOK_EVENT_TYPES}. */
export const KnownEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type KnownEventType = z.infer<typeof KnownEventTypeSchema>;

/**
 * Any webhook event type name, known or not: upper snake case. The complete list is not in the
 * contract, so an event type added later by the platform must still pass.
 */
export const EventTypeSchema = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]*$/)
  .describe('An event type in upper snake case, e.g. JOINED_COMMUNITY.');
export type EventType = z.infer<typeof EventTypeSchema>;

/** The body of the webhook event-type list response. */
export const WebhookEventTypeListSchema = z.array(EventTypeSchema);
export type WebhookEventTypeList = z.infer<typeof WebhookEventTypeListSchema>;

const webhookName = () => z.string().min(WEBHOOK_NAME_MIN_LENGTH);
const webhookUri = () => httpUrl().describe('Where deliveries are POSTed.');
const webhookEvents = () => z.array(EventTypeSchema).describe('Event types the webhook receives.');

/** A webhook of a community. */
export const WebhookSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  uri: webhookUri(),
  communityId: z.uuid(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  active: z.boolean(),
  secret: z.string(),
  events: webhookEvents(),
  success: count().describe('Number of successful deliveries.'),
  failed: count().describe('Number of failed deliveries.'),
  exhausted: count().describe('Number of deliveries that ran out of tries.'),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** The body of the webhook list response; `nextCursor` is null on the last page. */
export const WebhookListResponseSchema = z.object({
  items: z.array(WebhookSchema),
  nextCursor: z
    .string()
    .nullable()
    .describe('Opaque cursor of the next page while more items exist, null at the end.'),
});
export type WebhookListResponse = z.infer<typeof WebhookListResponseSchema>;

/** The body of webhook creation. Whether `events` is required is not in the contract. */
export const WebhookCreateBodySchema = z.object({
  name: webhookName(),
  uri: webhookUri(),
  active: z.boolean(),
  events: webhookEvents().optional(),
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBodySchema>;

/** The body of the webhook create response. */
export const WebhookCreateResponseSchema = z.object({
  id: z.uuid(),
});
export type WebhookCreateResponse = z.infer<typeof WebhookCreateResponseSchema>;

/** The body of a webhook update: every field optional, only those given change. */
export const WebhookUpdateBodySchema = z.object({
  name: webhookName().optional(),
  active: z.boolean().optional(),
  uri: webhookUri().optional(),
  events: webhookEvents().optional(),
});
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBodySchema>;

/** The record of one delivery of an event to a webhook. */
export const WebhookDeliveryRecordSchema = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  status: z.string().describe('Value seen: success.'),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  retryAt: dateTime(),
  eventType: EventTypeSchema,
  tries: count(),
});
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliveryRecordSchema>;

/** The body of the webhook delivery-record list response. */
export const WebhookDeliveryRecordListSchema = z.object({
  items: z.array(WebhookDeliveryRecordSchema),
  page: count(),
});
export type WebhookDeliveryRecordList = z.infer<typeof WebhookDeliveryRecordListSchema>;

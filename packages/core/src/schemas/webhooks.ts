import * as z from 'zod';
import { count, dateTime, httpUrl } from './fields.js';
import { WEBHOOK_NAME_MIN_LENGTH } from './limits.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-constants.js';
import { EventTypeSchema } from './webhook-events.js';

export { WEBHOOK_EVENT_TYPES } from './webhook-constants.js';

/** One of the webhook event types in {@link WEBHOOK_EVENT_TYPES}. */
export const KnownEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
/** A webhook event type questkit knows, one of {@link WEBHOOK_EVENT_TYPES}. */
export type KnownEventType = z.infer<typeof KnownEventTypeSchema>;

/**
 * An event type the platform reports: a known one, or one added after this version (so answers
 * still type-check). What you send (a webhook's `events`) takes {@link KnownEventType} only, so a
 * misspelt name fails the compiler.
 */
export type EventType = KnownEventType | (string & {});

/** The body of the webhook event-type list response. */
export const WebhookEventTypeListSchema = z.array(EventTypeSchema);
/** The body of the webhook event-type list response. */
export type WebhookEventTypeList = EventType[];

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
/** A webhook of a community. */
export interface Webhook extends Omit<z.infer<typeof WebhookSchema>, 'events'> {
  /** Event types the webhook receives. */
  events: EventType[];
}

/** The body of the webhook list response; `nextCursor` is null on the last page. */
export const WebhookListResponseSchema = z.object({
  items: z.array(WebhookSchema),
  nextCursor: z
    .string()
    .nullable()
    .describe('Opaque cursor of the next page while more items exist, null at the end.'),
});
/** The body of the webhook list response; `nextCursor` is null on the last page. */
export interface WebhookListResponse
  extends Omit<z.infer<typeof WebhookListResponseSchema>, 'items'> {
  items: Webhook[];
}

/** The body of webhook creation. Whether `events` is required is not in the contract. */
export const WebhookCreateBodySchema = z.object({
  name: webhookName(),
  uri: webhookUri(),
  active: z.boolean(),
  events: webhookEvents().optional(),
});
/** A webhook to create, as a caller writes it: `events` are known event types. */
export interface WebhookCreateBody extends Omit<z.input<typeof WebhookCreateBodySchema>, 'events'> {
  /** Event types the webhook receives; none when left out. */
  events?: KnownEventType[];
}

/** The body of the webhook create response. */
export const WebhookCreateResponseSchema = z.object({
  id: z.uuid(),
});
/** The body of the webhook create response. */
export interface WebhookCreateResponse extends z.infer<typeof WebhookCreateResponseSchema> {}

/** The body of a webhook update: every field optional, only those given change. */
export const WebhookUpdateBodySchema = z.object({
  name: webhookName().optional(),
  active: z.boolean().optional(),
  uri: webhookUri().optional(),
  events: webhookEvents().optional(),
});
/** The changes to a webhook, as a caller writes them: `events` are known event types. */
export interface WebhookUpdateBody extends Omit<z.input<typeof WebhookUpdateBodySchema>, 'events'> {
  /** Event types the webhook receives from now on. */
  events?: KnownEventType[];
}

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
/** The record of one delivery of an event to a webhook. */
export interface WebhookDeliveryRecord
  extends Omit<z.infer<typeof WebhookDeliveryRecordSchema>, 'eventType'> {
  eventType: EventType;
}

/** The body of the webhook delivery-record list response. */
export const WebhookDeliveryRecordListSchema = z.object({
  items: z.array(WebhookDeliveryRecordSchema),
  page: count(),
});
/** The body of the webhook delivery-record list response. */
export interface WebhookDeliveryRecordList
  extends Omit<z.infer<typeof WebhookDeliveryRecordListSchema>, 'items'> {
  items: WebhookDeliveryRecord[];
}

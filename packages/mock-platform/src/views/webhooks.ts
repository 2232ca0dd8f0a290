import type { Webhook, WebhookDeliveryRecord } from '@questkit/core/api';
import type { DeliveryRecord, WebhookRecord } from '../store/records.js';

/** What a read-only caller sees in place of a secret or a task's API key. */
export const MASKED_SECRET = '********';

/** An element of the webhook list; the secret only for a caller that may write. */
export function webhookView(webhook: WebhookRecord, revealSecret = true): Webhook {
  return {
    id: webhook.id,
    name: webhook.name,
    uri: webhook.uri,
    communityId: webhook.communityId,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
    active: webhook.active,
    secret: revealSecret ? webhook.secret : MASKED_SECRET,
    events: [...webhook.events],
    success: webhook.success,
    failed: webhook.failed,
    exhausted: webhook.exhausted,
  };
}

/** An element of the delivery-record list (the payload is not part of it). */
export function deliveryView(delivery: DeliveryRecord): WebhookDeliveryRecord {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    status: delivery.status,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
    retryAt: delivery.retryAt,
    eventType: delivery.eventType,
    tries: delivery.tries,
  };
}

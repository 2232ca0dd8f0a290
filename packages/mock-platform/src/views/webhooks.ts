import type { Webhook, WebhookDeliveryRecord } from '@questkit/core';
import type { DeliveryRecord, WebhookRecord } from '../store/records.js';

/** An element of the webhook list. */
export function webhookView(webhook: WebhookRecord): Webhook {
  return {
    id: webhook.id,
    name: webhook.name,
    uri: webhook.uri,
    communityId: webhook.communityId,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
    active: webhook.active,
    secret: webhook.secret,
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

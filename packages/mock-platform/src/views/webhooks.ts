import {
  type Webhook,
  type WebhookDeliveryRecord,
  WebhookDeliveryRecordSchema,
  WebhookSchema,
} from '@questkit/core/api';
import type { DeliveryRecord, WebhookRecord } from '../store/records.js';

/** What a read-only caller sees in place of a secret or a task's API key. */
export const MASKED_SECRET = '********';

/** An element of the webhook list; the secret only for a caller that may write. */
export function webhookView(webhook: WebhookRecord, revealSecret = true): Webhook {
  return WebhookSchema.parse({
    ...webhook,
    secret: revealSecret ? webhook.secret : MASKED_SECRET,
  });
}

/** An element of the delivery-record list (the payload is not part of it). */
export function deliveryView(delivery: DeliveryRecord): WebhookDeliveryRecord {
  return WebhookDeliveryRecordSchema.parse(delivery);
}

import type { WebhookEvent } from '@questkit/core/api';
import { type SampleIds, sampleEvents } from './webhook-deliveries.js';

/** The checks of a webhook receiver, in the order they run (one delivery per event type first). */
export const WEBHOOK_CHECKS = {
  /** One good delivery of an event type. */
  delivery: (type: string) => ({
    id: `webhook.delivery.${type}`,
    title: `A ${type} delivery gets exactly 200 within 5 s, with at most 5,000 bytes of body`,
  }),
  /** The first delivery again, with the same event id. */
  repeat: {
    id: 'webhook.repeat',
    title: 'The same delivery again (a retry: the same event id) gets 200 too',
  },
  /** A delivery with a wrong secret. */
  wrongSecret: {
    id: 'webhook.wrong-secret',
    title: 'A delivery with a wrong secret does not get 200',
  },
} as const;

/** The secret the wrong-secret delivery carries. */
export const WRONG_WEBHOOK_SECRET = 'questkit-check-webhook-wrong-secret';

/** One delivery to send: the check it decides, the event and the secret it carries. */
export interface PlannedDelivery {
  id: string;
  title: string;
  event: WebhookEvent;
  secret: string;
}

/**
 * The deliveries of a run, as data: one per event type (one synthetic community, member and
 * quest), the first again with the same event id (a retry), and one with a wrong secret.
 */
export function planDeliveries(secret: string): PlannedDelivery[] {
  const ids: SampleIds = {
    communityId: crypto.randomUUID(),
    subdomain: 'questkit-check',
    userId: crypto.randomUUID(),
    questId: crypto.randomUUID(),
  };
  const events = sampleEvents(ids);
  const [wrong] = sampleEvents(ids);
  return [
    ...events.map((event) => ({ ...WEBHOOK_CHECKS.delivery(event.type), event, secret })),
    { ...WEBHOOK_CHECKS.repeat, event: events[0]!, secret },
    { ...WEBHOOK_CHECKS.wrongSecret, event: wrong!, secret: WRONG_WEBHOOK_SECRET },
  ];
}

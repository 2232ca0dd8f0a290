import {
  deliveryBody,
  type KnownEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventOf,
} from '@questkit/core/api';
import type { OutgoingRequest } from './send.js';

// The deliveries `questkit check-webhook` sends, made as the platform makes them: a POST of the
// event plus the webhook's `secret` in a JSON body (core's `deliveryBody`), no signature header.
// The event shapes are core's schemas: a sample per known type, typed by them, so a type added
// to core fails the compiler here until it has a sample.

/** The ids a sample event refers to: one synthetic community, member and quest per run. */
export interface SampleIds {
  communityId: string;
  subdomain: string;
  userId: string;
  questId: string;
}

type SampleData = {
  [T in KnownEventType]: (ids: SampleIds, at: string) => WebhookEventOf<T>['data'];
};

/** Realistic `data` of each known event type, as the platform fills it. */
const SAMPLE_DATA: SampleData = {
  JOINED_COMMUNITY: (ids, at) => ({
    userId: ids.userId,
    name: 'questkit-check',
    referrerId: null,
    joinedAt: at,
  }),
  QUEST_CLAIMED: (ids) => ({
    questId: ids.questId,
    questName: 'Follow us on X',
    userId: ids.userId,
    requestId: crypto.randomUUID(),
    xp: 100,
  }),
  QUEST_CLAIM_FAILED: (ids) => ({
    questId: ids.questId,
    questName: 'Follow us on X',
    userId: ids.userId,
    requestId: crypto.randomUUID(),
    status: 'failed',
    reason: 'not-verified',
    message: 'You do not follow us yet.',
  }),
};

/** One event of `type` with realistic `data` and a fresh id. */
export function sampleEvent(type: KnownEventType, ids: SampleIds): WebhookEvent {
  const at = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    type,
    createdAt: at,
    communityId: ids.communityId,
    subdomain: ids.subdomain,
    data: SAMPLE_DATA[type](ids, at),
  };
}

/** One sample event of every known type, in core's order. */
export function sampleEvents(ids: SampleIds): WebhookEvent[] {
  return WEBHOOK_EVENT_TYPES.map((type) => sampleEvent(type, ids));
}

/** The POST that delivers `event` to `url` with `secret`, as the platform sends it. */
export function deliveryRequest(url: string, event: WebhookEvent, secret: string): OutgoingRequest {
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'user-agent': 'questkit-check-webhook' },
    body: deliveryBody(event, secret),
  };
}

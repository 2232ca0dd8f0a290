import { sampleEvent } from '@questkit/conformance';
import { type KnownEventType, KnownEventTypeSchema } from '@questkit/core/api';
import * as z from 'zod';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { randomId } from '../ids.js';
import type { Dispatched } from '../service/webhooks/deliveries.js';
import { communityData } from '../service/webhooks/event-data.js';
import type { CommunityRecord } from '../store/records.js';
import { deliveryView } from '../views/webhooks.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

const EventBodySchema = z.object({
  type: z.string().min(1).describe('An event type of the event-types route.'),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'The event data; default: realistic data of its type (the community itself, a sample member and quest).',
    ),
});

/** Realistic `data` of a known type, in this community: what `questkit check-webhook` sends. */
function sampleData(community: CommunityRecord, type: string): Record<string, unknown> {
  if (!KnownEventTypeSchema.safeParse(type).success) return {};
  const ids = {
    communityId: community.id,
    subdomain: community.subdomain,
    userId: randomId(),
    questId: randomId(),
  };
  return { ...sampleEvent(type as KnownEventType, ids).data, community: communityData(community) };
}

async function dispatchedAnswer(dispatched: Dispatched) {
  const deliveries = await dispatched.settled;
  return { event: dispatched.event, deliveries: deliveries.map(deliveryView) };
}

/**
 * Webhook deliveries: firing an event, a delivery with its payload, tries and next retry, and
 * delivering the same event again as a new delivery. Firing and replaying answer
 * `{event, deliveries}` once each delivery has had its first try.
 */
export const WEBHOOK_ROUTES = [
  defineControlRoute({
    method: 'POST',
    path: '/__mock/communities/{subdomain}/events',
    summary: 'Fire an event to the community’s webhooks',
    example: { type: 'JOINED_COMMUNITY' },
    bodySchema: EventBodySchema,
    handle: async ({ params, body, c }, { context, service }) => {
      const community = context.store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const known = context.settings.eventTypes;
      if (!known.includes(body.type)) {
        return toResponse(
          apiError(
            400,
            `Invalid body field type: unknown event type; use one of ${known.join(', ')}`,
          ),
        );
      }
      return c.json(
        await dispatchedAnswer(
          service.deliveries.emit(
            community,
            body.type,
            body.data ?? sampleData(community, body.type),
          ),
        ),
      );
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/__mock/webhooks/deliveries/{deliveryId}',
    summary: 'A webhook delivery with its payload and attempts',
    handle: ({ params, c }, { context, service }) => {
      const record = context.store.deliveries.get(params.deliveryId);
      if (!record) return toResponse(apiError(404, `Delivery ${params.deliveryId} not found`));
      return c.json({
        ...deliveryView(record),
        payload: record.payload,
        attempts: service.deliveries.attempts(record.id),
        retryScheduled: service.scheduler.has(record.id),
      });
    },
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__mock/webhooks/deliveries/{deliveryId}/replay',
    summary: 'Deliver the same event again (same event id)',
    handle: async ({ params, c }, { service }) => {
      const dispatched = service.deliveries.replay(params.deliveryId);
      if (!dispatched) return toResponse(apiError(404, `Delivery ${params.deliveryId} not found`));
      return c.json(await dispatchedAnswer(dispatched));
    },
  }),
];

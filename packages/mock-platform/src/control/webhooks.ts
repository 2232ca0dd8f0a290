import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import type { MockService } from '../service/service.js';
import type { Dispatched } from '../service/webhooks/deliveries.js';
import { deliveryView } from '../views/webhooks.js';
import { readBody } from './request.js';

const EventBodySchema = z.object({
  type: z.string().min(1).describe('An event type of the event-types route.'),
  data: z.record(z.string(), z.unknown()).optional().describe('The event data; default {}.'),
});

async function dispatchedAnswer(dispatched: Dispatched) {
  const deliveries = await dispatched.settled;
  return { event: dispatched.event, deliveries: deliveries.map(deliveryView) };
}

/**
 * Webhook deliveries: `POST /communities/{subdomain}/events` `{type, data?}` fires an event;
 * `GET /webhooks/deliveries/{deliveryId}` shows a delivery with its payload, tries and next retry;
 * `POST /webhooks/deliveries/{deliveryId}/replay` delivers the same event again as a new delivery.
 * Firing and replaying answer `{event, deliveries}` once each delivery has had its first try.
 */
export function webhookRoutes(context: MockContext, service: MockService): Hono {
  const routes = new Hono();
  const { store } = context;

  routes.post('/communities/:subdomain/events', async (c) => {
    const community = store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community)
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    const body = await readBody(c.req.raw, EventBodySchema);
    if (!body.ok) return body.response;
    const known = context.settings.eventTypes;
    if (!known.includes(body.data.type)) {
      return toResponse(
        apiError(
          400,
          `Invalid body field type: unknown event type; use one of ${known.join(', ')}`,
        ),
      );
    }
    return c.json(
      await dispatchedAnswer(
        service.deliveries.emit(community, body.data.type, body.data.data ?? {}),
      ),
    );
  });

  routes.get('/webhooks/deliveries/:deliveryId', (c) => {
    const record = store.deliveries.get(c.req.param('deliveryId'));
    if (!record)
      return toResponse(apiError(404, `Delivery ${c.req.param('deliveryId')} not found`));
    return c.json({
      ...deliveryView(record),
      payload: record.payload,
      attempts: service.deliveries.attempts(record.id),
      retryScheduled: service.scheduler.has(record.id),
    });
  });

  routes.post('/webhooks/deliveries/:deliveryId/replay', async (c) => {
    const dispatched = service.deliveries.replay(c.req.param('deliveryId'));
    if (!dispatched)
      return toResponse(apiError(404, `Delivery ${c.req.param('deliveryId')} not found`));
    return c.json(await dispatchedAnswer(dispatched));
  });
  return routes;
}

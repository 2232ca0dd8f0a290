import { mayReadSecrets } from '../auth/principal.js';
import type { MockContext } from '../context.js';
import { type ApiFailure, apiError, invalid } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { empty, ok, okText } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { randomId, randomWebhookSecret } from '../ids.js';
import { WEBHOOK_LIST_LIMIT_DEFAULT } from '../limits.js';
import { type CommunityRecord, DELIVERY_STATUSES, type WebhookRecord } from '../store/records.js';
import { byTimeThenId, lowerBound } from '../store/sorted.js';
import type { WebhookWriteConflict } from '../store/store.js';
import { cachedJson } from '../views/answer-cache.js';
import { deliveryView, webhookView } from '../views/webhooks.js';

const webhookOrder = byTimeThenId<WebhookRecord>((webhook) => webhook.createdAt);

function findWebhook(context: MockContext, community: CommunityRecord, webhookId: string) {
  const webhook = context.store.webhooks.get(webhookId);
  return webhook && webhook.communityId === community.id ? webhook : undefined;
}

const webhookNotFound = (webhookId: string, community: CommunityRecord) =>
  apiError(404, `Webhook ${webhookId} not found in community ${community.subdomain}`);

function conflict(reason: WebhookWriteConflict, context: MockContext): ApiFailure {
  return reason === 'uri-taken'
    ? apiError(409, 'Another webhook of this community already has this uri')
    : apiError(
        409,
        `The community already has ${context.settings.maxWebhooksPerCommunity} webhooks, the most allowed`,
      );
}

/** The event types, each known and once, in the order given; or a 400 naming the bad one. */
function checkEvents(events: readonly string[], context: MockContext): string[] | ApiFailure {
  const known = context.settings.eventTypes;
  for (const [index, event] of events.entries()) {
    if (!known.includes(event)) {
      return invalid(
        'body',
        `events.${index}`,
        `unknown event type; use one of ${known.join(', ')}`,
      );
    }
  }
  return [...new Set(events)];
}

/** GET /webhooks?limit=&cursor= */
export const listWebhooks = bindRoute(
  'listWebhooks',
  ({ query, community, principal }, context) => {
    const all = context.store.webhooks.listByCommunity(community.id);
    let start = 0;
    if (query.cursor) {
      const after = decodeCursor(query.cursor);
      if (!after) return invalid('query', 'cursor', 'is not a cursor this API returned');
      const probe = { ...all[0]!, ...after };
      start = lowerBound(all, probe, webhookOrder);
      if (all[start]?.id === after.id) start += 1;
    }
    const limit = query.limit ?? WEBHOOK_LIST_LIMIT_DEFAULT;
    const page = all.slice(start, start + limit);
    const more = start + page.length < all.length;
    const reveal = mayReadSecrets(principal);
    const key = `webhooks ${community.id} ${start} ${limit} ${reveal}`;
    const items = cachedJson(context.store, key, () =>
      JSON.stringify(page.map((webhook) => webhookView(webhook, reveal))),
    );
    const nextCursor = more && page.length > 0 ? encodeCursor(page[page.length - 1]!) : null;
    return okText(`{"items":${items},"nextCursor":${JSON.stringify(nextCursor)}}`);
  },
);

/** POST /webhooks */
export const createWebhook = bindRoute('createWebhook', ({ body, community }, context) => {
  const events = checkEvents(body.events ?? [], context);
  if ('kind' in events) return events;
  const now = context.clock.now().toISOString();
  const result = context.store.webhooks.create(
    {
      id: randomId(),
      communityId: community.id,
      name: body.name,
      uri: body.uri,
      active: body.active,
      secret: randomWebhookSecret(),
      events,
      success: 0,
      failed: 0,
      exhausted: 0,
      createdAt: now,
      updatedAt: now,
    },
    context.settings.maxWebhooksPerCommunity,
  );
  if (!result.ok) return conflict(result.conflict, context);
  return ok({ id: result.record.id });
});

/** PATCH /webhooks/{webhookId} */
export const updateWebhook = bindRoute('updateWebhook', ({ params, body, community }, context) => {
  if (!findWebhook(context, community, params.webhookId)) {
    return webhookNotFound(params.webhookId, community);
  }
  const patch: Partial<WebhookRecord> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.uri !== undefined) patch.uri = body.uri;
  if (body.active !== undefined) patch.active = body.active;
  if (body.events !== undefined) {
    const events = checkEvents(body.events, context);
    if ('kind' in events) return events;
    patch.events = events;
  }
  if (Object.keys(patch).length === 0) return empty();
  patch.updatedAt = context.clock.now().toISOString();
  const result = context.store.webhooks.update(params.webhookId, patch);
  if (!result) return webhookNotFound(params.webhookId, community);
  if (!result.ok) return conflict(result.conflict, context);
  return empty();
});

/** DELETE /webhooks/{webhookId} */
export const deleteWebhook = bindRoute('deleteWebhook', ({ params, community }, context) => {
  if (!findWebhook(context, community, params.webhookId)) {
    return webhookNotFound(params.webhookId, community);
  }
  if (!context.store.webhooks.delete(params.webhookId)) {
    return webhookNotFound(params.webhookId, community);
  }
  return empty();
});

/** GET /webhooks-event-types */
export const listWebhookEventTypes = bindRoute('listWebhookEventTypes', (_input, context) =>
  ok([...context.settings.eventTypes]),
);

/** GET /webhooks/{webhookId}/events?limit=&page=&statusFilter= */
export const listWebhookDeliveries = bindRoute(
  'listWebhookDeliveries',
  ({ params, query, community }, context) => {
    if (!findWebhook(context, community, params.webhookId)) {
      return webhookNotFound(params.webhookId, community);
    }
    const { statusFilter } = query;
    if (
      statusFilter !== undefined &&
      !(DELIVERY_STATUSES as readonly string[]).includes(statusFilter)
    ) {
      return invalid('query', 'statusFilter', `must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    const page = query.page ?? 0;
    const matching = context.store.deliveries
      .listByWebhook(params.webhookId)
      .filter((delivery) => statusFilter === undefined || delivery.status === statusFilter);
    const items = matching.slice(page * query.limit, (page + 1) * query.limit).map(deliveryView);
    return ok({ items, page });
  },
);

import {
  SubdomainParamsSchema,
  WebhookCreateBodySchema,
  WebhookCreateResponseSchema,
  WebhookDeliveryRecordListSchema,
  WebhookEventsQuerySchema,
  WebhookEventTypeListSchema,
  WebhookListQuerySchema,
  WebhookListResponseSchema,
  WebhookPathParamsSchema,
  WebhookUpdateBodySchema,
} from '../schemas/index.js';
import {
  WEBHOOK_EVENTS_LIMIT_MAX,
  WEBHOOK_EVENTS_PAGE_MIN,
  WEBHOOK_LIST_LIMIT_MAX,
} from '../schemas/limits.js';
import { CONTRACT_ERRORS } from './community.js';
import { defineOperation } from './operation.js';

/** GET /webhooks?limit=&cursor= */
export const listWebhooks = defineOperation({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/webhooks',
  summary: 'List webhooks',
  description:
    'Webhooks ordered by createdAt, then id; without limit the server chooses the page size. nextCursor is an opaque ' +
    'string while more webhooks exist and null on the last page; pass it back as cursor.',
  tag: 'Webhooks',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  paging: {
    size: 'limit',
    maxSize: WEBHOOK_LIST_LIMIT_MAX,
    items: 'items',
    next: { kind: 'answer-field', param: 'cursor', field: 'nextCursor' },
  },
  params: SubdomainParamsSchema,
  query: WebhookListQuerySchema,
  response: { name: 'WebhookList', schema: WebhookListResponseSchema },
  errors: CONTRACT_ERRORS,
});

/** POST /webhooks */
export const createWebhook = defineOperation({
  operationId: 'createWebhook',
  method: 'post',
  path: '/webhooks',
  summary: 'Create a webhook',
  description:
    'events defaults to an empty list; every event type must be one the event-types route lists. ' +
    'A second webhook with the same uri (compared as a normalized URL) is a 409, as is one more than the maximum per community. ' +
    'The webhook secret is generated: the answer is only {id}; read the secret back from the webhook list (GET /webhooks, listWebhooks in @questkit/client) with a read-write key. ' +
    'Every delivery carries it in the body field secret.',
  tag: 'Webhooks',
  access: 'write',
  headers: ['x-svc-mcp-client'],
  params: SubdomainParamsSchema,
  body: WebhookCreateBodySchema,
  response: { name: 'WebhookCreateResponse', schema: WebhookCreateResponseSchema },
  errors: CONTRACT_ERRORS,
});

/** PATCH /webhooks/{webhookId} */
export const updateWebhook = defineOperation({
  operationId: 'updateWebhook',
  method: 'patch',
  path: '/webhooks/{webhookId}',
  summary: 'Update a webhook',
  description:
    'Changes the fields given (an empty object changes nothing). A uri already used by another webhook is a 409. Answers 200 without content.',
  tag: 'Webhooks',
  access: 'write',
  headers: ['x-svc-mcp-client', 'x-svc-confirmation-token'],
  params: WebhookPathParamsSchema,
  body: WebhookUpdateBodySchema,
  response: null,
  errors: CONTRACT_ERRORS,
});

/** DELETE /webhooks/{webhookId} */
export const deleteWebhook = defineOperation({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/webhooks/{webhookId}',
  summary: 'Delete a webhook',
  description: 'Deletes the webhook and its delivery records. Answers 200 without content.',
  tag: 'Webhooks',
  access: 'write',
  headers: ['x-svc-mcp-client', 'x-svc-confirmation-token'],
  params: WebhookPathParamsSchema,
  response: null,
  errors: CONTRACT_ERRORS,
});

/** GET /webhooks-event-types */
export const listWebhookEventTypes = defineOperation({
  operationId: 'listWebhookEventTypes',
  method: 'get',
  path: '/webhooks-event-types',
  summary: 'List webhook event types',
  description: 'The event types a webhook may subscribe to.',
  tag: 'Webhooks',
  access: 'read',
  headers: ['x-svc-mcp-client'],
  params: SubdomainParamsSchema,
  response: { name: 'WebhookEventTypeList', schema: WebhookEventTypeListSchema },
  errors: CONTRACT_ERRORS,
});

/** GET /webhooks/{webhookId}/events?limit=&page=&statusFilter= */
export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/webhooks/{webhookId}/events',
  summary: "A webhook's delivery records",
  description:
    'Delivery records, newest first; pages count from 0. statusFilter keeps the records of one delivery status. ' +
    'A page past the end has no items.',
  tag: 'Webhooks',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  paging: {
    size: 'limit',
    maxSize: WEBHOOK_EVENTS_LIMIT_MAX,
    items: 'items',
    next: { kind: 'page-number', param: 'page', first: WEBHOOK_EVENTS_PAGE_MIN },
  },
  params: WebhookPathParamsSchema,
  query: WebhookEventsQuerySchema,
  response: { name: 'WebhookDeliveryRecordList', schema: WebhookDeliveryRecordListSchema },
  errors: CONTRACT_ERRORS,
});

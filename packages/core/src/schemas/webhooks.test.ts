import { describe, expect, it } from 'vitest';
import { describeFields, issuePaths } from './field-cases.testkit.js';
import { EventTypeSchema } from './webhook-events.js';
import {
  KnownEventTypeSchema,
  WEBHOOK_EVENT_TYPES,
  WebhookCreateBodySchema,
  WebhookCreateResponseSchema,
  WebhookDeliveryRecordListSchema,
  WebhookDeliveryRecordSchema,
  WebhookEventTypeListSchema,
  WebhookListResponseSchema,
  WebhookSchema,
  WebhookUpdateBodySchema,
} from './webhooks.js';

const uuid = (n: number) => `9b2d4c1e-3f5a-4b6c-8d7e-1a2b3c4d5e${String(n).padStart(2, '0')}`;

const webhook = {
  id: uuid(1),
  name: 'Members feed',
  uri: 'https://hooks.example.com/questkit',
  communityId: uuid(2),
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00.000Z',
  active: true,
  secret: 'whsec_abc',
  events: ['JOINED_COMMUNITY'],
  success: 10,
  failed: 2,
  exhausted: 0,
};

const record = {
  id: uuid(3),
  webhookId: uuid(1),
  status: 'success',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:01Z',
  retryAt: '2024-01-01T00:00:00Z',
  eventType: 'JOINED_COMMUNITY',
  tries: 1,
};

const createBody = {
  name: 'Members feed',
  uri: 'https://hooks.example.com/questkit',
  active: true,
  events: ['JOINED_COMMUNITY', 'QUEST_CLAIMED'],
};

describeFields('Webhook', WebhookSchema, webhook, { required: Object.keys(webhook) });

describeFields(
  'Webhook list response',
  WebhookListResponseSchema,
  {
    items: [webhook],
    nextCursor: 'opaque-1',
  },
  { required: ['items'], nullable: ['nextCursor'] },
);

describeFields('Webhook create body', WebhookCreateBodySchema, createBody, {
  required: ['name', 'uri', 'active'],
  optional: ['events'],
});

describeFields(
  'Webhook create response',
  WebhookCreateResponseSchema,
  { id: uuid(1) },
  {
    required: ['id'],
  },
);

describeFields('Webhook update body', WebhookUpdateBodySchema, createBody, {
  optional: ['name', 'uri', 'active', 'events'],
});

describeFields('Webhook delivery record', WebhookDeliveryRecordSchema, record, {
  required: Object.keys(record),
});

describeFields(
  'Webhook delivery record list',
  WebhookDeliveryRecordListSchema,
  {
    items: [record],
    page: 0,
  },
  { required: ['items', 'page'] },
);

describe('event types', () => {
  it('lists the nine types real receivers handle, led by the one the contract names', () => {
    expect(WEBHOOK_EVENT_TYPES[0]).toBe('JOINED_COMMUNITY');
    expect(WEBHOOK_EVENT_TYPES).toEqual([
      'JOINED_COMMUNITY',
      'LEFT_COMMUNITY',
      'QUEST_SUCCEEDED',
      'QUEST_CLAIMED',
      'QUEST_FAILED',
      'QUEST_CLAIM_STATUS_UPDATED',
      'SPRINT_STARTED',
      'SPRINT_ENDED',
      'USER_BANNED',
    ]);
  });

  it.each([
    ...WEBHOOK_EVENT_TYPES,
    'MEMBER_LEFT',
    'A',
    'LEVEL_2_REACHED',
  ])('accepts %s as an event type', (type) => {
    expect(EventTypeSchema.safeParse(type).success).toBe(true);
  });

  it.each([
    '',
    'joined_community',
    '_JOINED',
    '2FA_ENABLED',
    'JOINED-COMMUNITY',
    'JOINED COMMUNITY',
  ])('rejects %j as an event type', (type) => {
    expect(EventTypeSchema.safeParse(type).success).toBe(false);
  });

  it('knows only the listed event types', () => {
    expect(KnownEventTypeSchema.safeParse('QUEST_SUCCEEDED').success).toBe(true);
    expect(KnownEventTypeSchema.safeParse('QUEST_CLAIM_FAILED').success).toBe(false);
    expect(KnownEventTypeSchema.safeParse('MEMBER_LEFT').success).toBe(false);
  });

  it('parses the event-type list response', () => {
    expect(issuePaths(WebhookEventTypeListSchema, [...WEBHOOK_EVENT_TYPES])).toEqual([]);
    expect(issuePaths(WebhookEventTypeListSchema, ['JOINED_COMMUNITY', 'x'])).toEqual(['1']);
  });
});

describe('Webhook', () => {
  it.each(['id', 'communityId'])('needs %s to be a uuid', (key) => {
    expect(issuePaths(WebhookSchema, { ...webhook, [key]: 'wh-1' })).toEqual([key]);
  });

  it.each(['success', 'failed', 'exhausted'])('needs %s to be a count', (key) => {
    expect(issuePaths(WebhookSchema, { ...webhook, [key]: -1 })).toEqual([key]);
    expect(issuePaths(WebhookSchema, { ...webhook, [key]: 0.5 })).toEqual([key]);
  });

  it('rejects a malformed event type in events', () => {
    expect(issuePaths(WebhookSchema, { ...webhook, events: ['joined'] })).toEqual(['events.0']);
  });

  it('ends the list with a null cursor', () => {
    expect(issuePaths(WebhookListResponseSchema, { items: [], nextCursor: null })).toEqual([]);
  });
});

describe('webhook create and update bodies', () => {
  it.each([
    ['name', '', false],
    ['name', 'a', true],
    ['uri', 'not a uri', false],
    ['uri', '/relative/path', false],
    ['uri', 'mailto:ops@example.com', false],
    ['uri', 'http://127.0.0.1:9000/hook?x=1', true],
    ['events', [], true],
    ['events', ['JOINED_COMMUNITY', 'SOMETHING_NEW'], true],
    ['events', ['joined_community'], false],
  ])('%s = %j accepted: %s', (key, value, accepted) => {
    const body = { ...createBody, [key]: value };
    const createPaths = issuePaths(WebhookCreateBodySchema, body);
    const updatePaths = issuePaths(WebhookUpdateBodySchema, { [key]: value });
    expect(createPaths.length === 0).toBe(accepted);
    expect(updatePaths.length === 0).toBe(accepted);
    expect(createPaths.every((path) => path.startsWith(key))).toBe(true);
  });

  it('accepts an empty update', () => {
    expect(WebhookUpdateBodySchema.parse({})).toEqual({});
  });
});

describe('Webhook delivery record', () => {
  it('accepts statuses beyond success', () => {
    expect(issuePaths(WebhookDeliveryRecordSchema, { ...record, status: 'exhausted' })).toEqual([]);
  });

  it.each(['createdAt', 'updatedAt', 'retryAt'])('needs %s to be a date-time', (key) => {
    expect(issuePaths(WebhookDeliveryRecordSchema, { ...record, [key]: '1704067200' })).toEqual([
      key,
    ]);
  });

  it('rejects a negative page in the list', () => {
    expect(issuePaths(WebhookDeliveryRecordListSchema, { items: [], page: -1 })).toEqual(['page']);
  });
});

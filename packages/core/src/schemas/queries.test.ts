import { describe, expect, it } from 'vitest';
import { boundaryCases, issuePaths } from './field-cases.testkit.js';
import {
  InviteListQuerySchema,
  QuestListQuerySchema,
  ReviewPathParamsSchema,
  SubdomainParamsSchema,
  USER_LOOKUP_IDENTIFIERS,
  UserLookupQuerySchema,
  UserPathParamsSchema,
  WebhookEventsQuerySchema,
  WebhookListQuerySchema,
  WebhookMutationHeadersSchema,
  WebhookPathParamsSchema,
} from './queries.js';

const uuid = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';

// Integer parameters: the range of the contract's Limits table, tried as query strings.
const integerRanges = [
  ['invite list page', InviteListQuerySchema, 'page', 1, 1000, { page: '1' }],
  ['invite list page_size', InviteListQuerySchema, 'page_size', 1, 100, { page: '1' }],
  ['quest list limit', QuestListQuerySchema, 'limit', 1, 100, {}],
  ['webhook list limit', WebhookListQuerySchema, 'limit', 1, 100, {}],
  ['webhook events limit', WebhookEventsQuerySchema, 'limit', 1, 100, {}],
  ['webhook events page', WebhookEventsQuerySchema, 'page', 0, 1000, {}],
] as const;

describe.each(integerRanges)('%s', (_name, schema, key, min, max, base) => {
  it.each(boundaryCases(min, max, true))(`${key}=%s accepted: %s`, (value, accepted) => {
    const result = schema.safeParse({ ...base, [key]: value });
    expect(result.success).toBe(accepted);
    if (result.success) expect(result.data[key as keyof typeof result.data]).toBe(Number(value));
    else expect(result.error.issues.map((issue) => issue.path)).toEqual([[key]]);
  });

  it.each(['1.5', 'abc', '10abc', '[object Object]'])(`rejects ${key}=%s`, (value) => {
    expect(issuePaths(schema, { ...base, [key]: value })).toEqual([key]);
  });
});

describe('user lookup by social identifier', () => {
  it.each(USER_LOOKUP_IDENTIFIERS)('accepts %s alone', (key) => {
    expect(UserLookupQuerySchema.parse({ [key]: 'x' })).toEqual({ [key]: 'x' });
  });

  it('accepts several identifiers and a network', () => {
    const query = { blockchainAddress: '0xabc', blockchainNetwork: 'polygon', email: 'a@b.co' };
    expect(UserLookupQuerySchema.parse(query)).toEqual(query);
  });

  it.each([
    ['no parameter', {}],
    ['only blockchainNetwork', { blockchainNetwork: 'eth-mainnet' }],
    ['only empty identifiers', { email: '', discordId: '' }],
    ['only unknown parameters', { wallet: '0xabc' }],
  ])('rejects %s', (_name, query) => {
    const result = UserLookupQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/at least one of discordId/);
  });

  it('rejects a repeated parameter (an array)', () => {
    expect(issuePaths(UserLookupQuerySchema, { email: ['a@b.co', 'c@d.co'] })).toContain('email');
  });
});

describe('invite list query', () => {
  it('requires page and defaults page_size to 10', () => {
    expect(issuePaths(InviteListQuerySchema, {})).toEqual(['page']);
    expect(InviteListQuerySchema.parse({ page: '2' })).toEqual({ page: 2, page_size: 10 });
  });

  it('accepts the optional filters', () => {
    const query = { page: '1', page_size: '50', status: 'pending', invitesQuestId: uuid };
    expect(InviteListQuerySchema.parse(query)).toEqual({ ...query, page: 1, page_size: 50 });
  });

  it.each([
    ['status', 'expired'],
    ['invitesQuestId', 'quest-1'],
  ])('rejects %s=%s', (key, value) => {
    expect(issuePaths(InviteListQuerySchema, { page: '1', [key]: value })).toEqual([key]);
  });
});

describe('quest list query', () => {
  it('takes every parameter as optional', () => {
    expect(QuestListQuerySchema.parse({})).toEqual({});
    expect(QuestListQuerySchema.parse({ cursor: null })).toEqual({ cursor: null });
  });

  it.each(['moduleId', 'cursor'])('needs %s to be a uuid', (key) => {
    expect(QuestListQuerySchema.parse({ [key]: uuid })).toEqual({ [key]: uuid });
    expect(issuePaths(QuestListQuerySchema, { [key]: 'q-1' })).toEqual([key]);
  });
});

describe('webhook list query', () => {
  it.each([
    ['x'.repeat(100), true],
    ['x'.repeat(101), false],
    [null, true],
  ])('cursor %j accepted: %s', (cursor, accepted) => {
    expect(WebhookListQuerySchema.safeParse({ cursor }).success).toBe(accepted);
  });

  it('has no defaults', () => {
    expect(WebhookListQuerySchema.parse({})).toEqual({});
  });
});

describe('webhook events query', () => {
  it('defaults limit to 100 and page to 0', () => {
    expect(WebhookEventsQuerySchema.parse({})).toEqual({ limit: 100, page: 0 });
  });

  it('keeps a null page and the status filter', () => {
    expect(WebhookEventsQuerySchema.parse({ page: null, statusFilter: 'success' })).toEqual({
      limit: 100,
      page: null,
      statusFilter: 'success',
    });
  });
});

describe('path parameters and headers', () => {
  it.each([
    [UserPathParamsSchema, 'userId'],
    [ReviewPathParamsSchema, 'id'],
    [WebhookPathParamsSchema, 'webhookId'],
  ] as const)('needs %#: %s to be a uuid', (schema, key) => {
    expect(issuePaths(schema, { subdomain: 'demo', [key]: uuid })).toEqual([]);
    expect(issuePaths(schema, { subdomain: 'demo', [key]: 'not-a-uuid' })).toEqual([key]);
    expect(issuePaths(schema, { subdomain: 'demo' })).toEqual([key]);
  });

  it('needs a non-empty subdomain', () => {
    expect(SubdomainParamsSchema.parse({ subdomain: 'demo' })).toEqual({ subdomain: 'demo' });
    expect(issuePaths(SubdomainParamsSchema, { subdomain: '' })).toEqual(['subdomain']);
  });

  it('takes an optional uuid confirmation token', () => {
    const schema = WebhookMutationHeadersSchema;
    expect(issuePaths(schema, { 'x-api-key': 'k' })).toEqual([]);
    expect(issuePaths(schema, { 'x-svc-confirmation-token': uuid })).toEqual([]);
    expect(issuePaths(schema, { 'x-svc-confirmation-token': 'tok' })).toEqual([
      'x-svc-confirmation-token',
    ]);
  });
});

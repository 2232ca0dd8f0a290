import {
  WEBHOOK_EVENT_TYPES,
  WebhookCreateResponseSchema,
  WebhookDeliveryRecordListSchema,
  WebhookEventTypeListSchema,
  WebhookListResponseSchema,
} from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape, type TestPlatform } from '../testkit.js';

const WEBHOOK_FIELDS = [
  'id',
  'name',
  'uri',
  'communityId',
  'createdAt',
  'updatedAt',
  'active',
  'secret',
  'events',
  'success',
  'failed',
  'exhausted',
];
const hook = (n: number | string) => ({
  name: `hook ${n}`,
  uri: `http://127.0.0.1:9/hooks/${n}`,
  active: true,
});

async function create(t: TestPlatform, body: object) {
  const answer = await t.call('POST', 'demo/webhooks', { body });
  expect(answer.status, answer.text).toBe(200);
  return expectShape(WebhookCreateResponseSchema, answer.body).id;
}

async function listAll(t: TestPlatform, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const query: string = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const list = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', `demo/webhooks?${query}`)).body,
    );
    seen.push(...list.items.map((w) => w.id));
    cursor = list.nextCursor;
    if (cursor === null) return seen;
    expect(list.items).toHaveLength(limit);
  }
  throw new Error('the walk did not end');
}

describe('GET /webhooks', () => {
  it('lists webhooks with exactly the fields of the contract', async () => {
    const t = createTestPlatform();
    const list = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', 'demo/webhooks')).body,
    );
    expect(list.nextCursor).toBeNull();
    expect(list.items.map((w) => w.id)).toEqual([DEMO.webhooks.joined, DEMO.webhooks.claims]);
    for (const item of list.items)
      expect(Object.keys(item).sort()).toEqual([...WEBHOOK_FIELDS].sort());
    expect(list.items[0]).toMatchObject({
      success: 3,
      failed: 1,
      exhausted: 1,
      events: ['JOINED_COMMUNITY'],
    });
  });

  it('walks every page: nextCursor opaque while more exist, null at the end, each webhook once', async () => {
    const t = createTestPlatform();
    for (let n = 0; n < 10; n++) {
      t.clock.advance(n % 3 === 0 ? 0 : 1000); // some share a createdAt: the id breaks the tie
      await create(t, hook(n));
    }
    const all = await listAll(t, 100);
    expect(all).toHaveLength(12);
    for (const limit of [1, 3, 4, 6, 12])
      expect(await listAll(t, limit), `limit ${limit}`).toEqual(all);
    // Exactly full last page: null, not a cursor to an empty page.
    const twelve = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', 'demo/webhooks?limit=12')).body,
    );
    expect(twelve.nextCursor).toBeNull();
  });

  it('keeps its place when the webhook of the cursor is deleted', async () => {
    const t = createTestPlatform();
    const first = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', 'demo/webhooks?limit=1')).body,
    );
    expect((await t.call('DELETE', `demo/webhooks/${first.items[0]!.id}`)).status).toBe(200);
    const next = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', `demo/webhooks?limit=1&cursor=${first.nextCursor}`)).body,
    );
    expect(next.items.map((w) => w.id)).toEqual([DEMO.webhooks.claims]);
  });

  it('enforces limit 1..100 and cursor at most 100 characters', async () => {
    const t = createTestPlatform();
    expectError(await t.call('GET', 'demo/webhooks?limit=0'), 400, 'limit');
    expect((await t.call('GET', 'demo/webhooks?limit=1')).status).toBe(200);
    expect((await t.call('GET', 'demo/webhooks?limit=100')).status).toBe(200);
    expectError(await t.call('GET', 'demo/webhooks?limit=101'), 400, 'limit');
    expectError(await t.call('GET', `demo/webhooks?cursor=${'a'.repeat(101)}`), 400, 'cursor');
    expectError(await t.call('GET', `demo/webhooks?cursor=${'a'.repeat(100)}`), 400, 'cursor');
    expectError(await t.call('GET', 'demo/webhooks?cursor=%25%25'), 400, 'cursor');
  });

  it('needs a community key or an admin', async () => {
    const t = createTestPlatform();
    expectError(await t.call('GET', 'demo/webhooks', { key: null }), 401);
    expectError(await t.call('GET', 'demo/webhooks', { key: DEMO.sandbox.apiKey }), 403);
    expectError(await t.call('GET', 'nowhere/webhooks'), 404);
  });
});

describe('POST /webhooks', () => {
  it('creates a webhook with a generated secret and zero counters', async () => {
    const t = createTestPlatform();
    const id = await create(t, { ...hook('a'), events: ['QUEST_CLAIMED', 'QUEST_CLAIMED'] });
    const list = expectShape(
      WebhookListResponseSchema,
      (await t.call('GET', 'demo/webhooks')).body,
    );
    const created = list.items.find((w) => w.id === id)!;
    expect(created).toMatchObject({
      ...hook('a'),
      events: ['QUEST_CLAIMED'],
      communityId: DEMO.communityId,
      success: 0,
      failed: 0,
      exhausted: 0,
      createdAt: '2025-06-01T12:00:00.000Z',
    });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const bare = await create(t, hook('b'));
    expect(t.platform.store.webhooks.get(bare)?.events).toEqual([]);
  });

  it('answers 400 naming an unknown field, on create and on update', async () => {
    const t = createTestPlatform();
    expectError(
      await t.call('POST', 'demo/webhooks', {
        body: { ...hook('x'), evnets: ['JOINED_COMMUNITY'] },
      }),
      400,
      'evnets',
    );
    const id = await create(t, hook('y'));
    expectError(
      await t.call('PATCH', `demo/webhooks/${id}`, { body: { actve: false } }),
      400,
      'actve',
    );
  });

  it('answers 409 for a uri already used by a webhook of the community', async () => {
    const t = createTestPlatform();
    await create(t, hook('a'));
    expectError(
      await t.call('POST', 'demo/webhooks', { body: { ...hook('a'), name: 'other' } }),
      409,
      'uri',
    );
    // Another community may use the same uri.
    const other = await t.call('POST', 'sandbox/webhooks', {
      key: DEMO.sandbox.apiKey,
      body: hook('a'),
    });
    expect(other.status).toBe(200);
  });

  it('answers 409 past the maximum number of webhooks', async () => {
    const t = createTestPlatform({ maxWebhooksPerCommunity: 3 });
    await create(t, hook(1));
    expectError(await t.call('POST', 'demo/webhooks', { body: hook(2) }), 409, 'most');
  });

  it.each([
    ['an empty name', { ...hook(1), name: '' }, 'name'],
    ['a uri that is not a URL', { ...hook(1), uri: 'not a url' }, 'uri'],
    ['a non-http uri', { ...hook(1), uri: 'ftp://example.com/x' }, 'uri'],
    ['a missing active', { name: 'x', uri: 'http://127.0.0.1:9/x' }, 'active'],
    [
      'an unknown event type',
      { ...hook(1), events: ['JOINED_COMMUNITY', 'NOT_AN_EVENT'] },
      'events.1',
    ],
    ['a malformed event type', { ...hook(1), events: ['joined'] }, 'events.0'],
  ])('answers 400 for %s', async (_case, body, field) => {
    const t = createTestPlatform();
    expectError(await t.call('POST', 'demo/webhooks', { body }), 400, field);
  });

  it('needs write access', async () => {
    const t = createTestPlatform();
    expectError(
      await t.call('POST', 'demo/webhooks', { key: DEMO.apiKeys.readOnly, body: hook(1) }),
      403,
    );
    expectError(await t.call('POST', 'demo/webhooks', { key: null, body: hook(1) }), 401);
    expectError(await t.call('POST', 'nowhere/webhooks', { body: hook(1) }), 404);
  });
});

describe('PATCH /webhooks/{webhookId}', () => {
  const path = `demo/webhooks/${DEMO.webhooks.claims}`;

  it('changes the fields given and answers 200 without content', async () => {
    const t = createTestPlatform();
    t.clock.advance(5000);
    const answer = await t.call('PATCH', path, {
      body: { active: true, events: ['JOINED_COMMUNITY'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(t.platform.store.webhooks.get(DEMO.webhooks.claims)).toMatchObject({
      active: true,
      events: ['JOINED_COMMUNITY'],
      name: 'Quest claims (demo data)',
      updatedAt: '2025-06-01T12:00:05.000Z',
    });
    const before = t.platform.store.webhooks.get(DEMO.webhooks.claims);
    expect((await t.call('PATCH', path, { body: {} })).status).toBe(200);
    expect(t.platform.store.webhooks.get(DEMO.webhooks.claims)).toEqual(before);
  });

  it('answers 409 for the uri of another webhook, 404 for an unknown one, 400 for bad fields', async () => {
    const t = createTestPlatform();
    expectError(
      await t.call('PATCH', path, { body: { uri: 'http://127.0.0.1:4010/webhooks/joined' } }),
      409,
    );
    expectError(
      await t.call('PATCH', 'demo/webhooks/30000000-0000-4000-8000-0000000000ff', { body: {} }),
      404,
    );
    expectError(await t.call('PATCH', 'demo/webhooks/nope', { body: {} }), 400, 'webhookId');
    expectError(await t.call('PATCH', path, { body: { name: '' } }), 400, 'name');
    expectError(await t.call('PATCH', path, { body: { events: ['NOPE'] } }), 400, 'events.0');
    expectError(await t.call('PATCH', path, { key: DEMO.apiKeys.readOnly, body: {} }), 403);
    expectError(
      await t.call('PATCH', `sandbox/webhooks/${DEMO.webhooks.claims}`, {
        key: DEMO.sandbox.apiKey,
        body: {},
      }),
      404,
    );
  });

  it('validates and records x-svc-confirmation-token and x-svc-mcp-client', async () => {
    const t = createTestPlatform();
    const token = '7d444840-9dc0-41dd-8b6f-ef7a1a5f7a1e';
    expectError(
      await t.call('PATCH', path, {
        headers: { 'x-svc-confirmation-token': 'not-a-uuid' },
        body: {},
      }),
      400,
      'x-svc-confirmation-token',
    );
    expectError(
      await t.call('PATCH', path, { headers: { 'x-svc-mcp-client': 'bad client!' }, body: {} }),
      400,
      'x-svc-mcp-client',
    );
    const ok = await t.call('PATCH', path, {
      headers: { 'x-svc-confirmation-token': token, 'x-svc-mcp-client': 'claude-desktop' },
      body: { active: true },
    });
    expect(ok.status).toBe(200);
    const recorded = t.platform.requests().at(-1);
    expect(recorded).toMatchObject({
      method: 'PATCH',
      operationId: 'updateWebhook',
      status: 200,
      principal: 'key:60000000-0000-4000-8000-000000000001',
      mcpClient: 'claude-desktop',
      confirmationToken: token,
    });
    const journal = await t.call('GET', '/__mock/requests', { key: null });
    expect(journal.body).toEqual(t.platform.requests());
  });
});

describe('DELETE /webhooks/{webhookId}', () => {
  it('deletes the webhook and its records, then answers 404', async () => {
    const t = createTestPlatform();
    const path = `demo/webhooks/${DEMO.webhooks.joined}`;
    const answer = await t.call('DELETE', path, {
      headers: { 'x-svc-confirmation-token': '7d444840-9dc0-41dd-8b6f-ef7a1a5f7a1e' },
    });
    expect([answer.status, answer.text]).toEqual([200, '']);
    expectError(await t.call('DELETE', path), 404);
    expectError(await t.call('GET', `${path}/events`), 404);
    expect(t.platform.store.deliveries.listByWebhook(DEMO.webhooks.joined)).toEqual([]);
  });

  it('answers 400, 401 and 403 where they apply', async () => {
    const t = createTestPlatform();
    const path = `demo/webhooks/${DEMO.webhooks.joined}`;
    expectError(await t.call('DELETE', 'demo/webhooks/nope'), 400, 'webhookId');
    expectError(
      await t.call('DELETE', path, { headers: { 'x-svc-confirmation-token': '123' } }),
      400,
      'x-svc-confirmation-token',
    );
    expectError(await t.call('DELETE', path, { key: null }), 401);
    expectError(await t.call('DELETE', path, { key: DEMO.apiKeys.readOnly }), 403);
  });
});

describe('GET /webhooks-event-types', () => {
  it('lists the event types', async () => {
    const t = createTestPlatform();
    const answer = await t.call('GET', 'demo/webhooks-event-types', { key: DEMO.apiKeys.readOnly });
    expect(expectShape(WebhookEventTypeListSchema, answer.body)).toEqual([...WEBHOOK_EVENT_TYPES]);
    expectError(await t.call('GET', 'demo/webhooks-event-types', { key: null }), 401);
    expectError(
      await t.call('GET', 'demo/webhooks-event-types', { key: DEMO.sandbox.apiKey }),
      403,
    );
    expectError(await t.call('GET', 'nowhere/webhooks-event-types'), 404);
  });
});

describe('GET /webhooks/{webhookId}/events', () => {
  const path = `demo/webhooks/${DEMO.webhooks.joined}/events`;

  it('lists delivery records newest first, with the contract fields', async () => {
    const t = createTestPlatform();
    const list = expectShape(WebhookDeliveryRecordListSchema, (await t.call('GET', path)).body);
    expect(list.page).toBe(0);
    expect(list.items).toHaveLength(6);
    const times = list.items.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const item of list.items) {
      expect(Object.keys(item).sort()).toEqual(
        [
          'createdAt',
          'eventType',
          'id',
          'retryAt',
          'status',
          'tries',
          'updatedAt',
          'webhookId',
        ].sort(),
      );
    }
  });

  it('pages from 0 and visits every record once', async () => {
    const t = createTestPlatform();
    const all = expectShape(
      WebhookDeliveryRecordListSchema,
      (await t.call('GET', path)).body,
    ).items.map((r) => r.id);
    for (const limit of [1, 4, 6]) {
      const seen: string[] = [];
      for (let page = 0; page <= 10; page++) {
        const list = expectShape(
          WebhookDeliveryRecordListSchema,
          (await t.call('GET', `${path}?limit=${limit}&page=${page}`)).body,
        );
        expect(list.page).toBe(page);
        if (list.items.length === 0) break;
        seen.push(...list.items.map((r) => r.id));
      }
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('filters by status', async () => {
    const t = createTestPlatform();
    const list = expectShape(
      WebhookDeliveryRecordListSchema,
      (await t.call('GET', `${path}?statusFilter=success`)).body,
    );
    expect(list.items.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    expectError(await t.call('GET', `${path}?statusFilter=done`), 400, 'statusFilter');
  });

  it('enforces limit 1..100 (default 100) and page 0..1000 at their boundaries', async () => {
    const t = createTestPlatform();
    expectError(await t.call('GET', `${path}?limit=0`), 400, 'limit');
    expect((await t.call('GET', `${path}?limit=1`)).status).toBe(200);
    expect((await t.call('GET', `${path}?limit=100`)).status).toBe(200);
    expectError(await t.call('GET', `${path}?limit=101`), 400, 'limit');
    expectError(await t.call('GET', `${path}?page=-1`), 400, 'page');
    expect((await t.call('GET', `${path}?page=0`)).status).toBe(200);
    expect((await t.call('GET', `${path}?page=1000`)).body).toEqual({ items: [], page: 1000 });
    expectError(await t.call('GET', `${path}?page=1001`), 400, 'page');
  });

  it('answers 401, 403 and 404 where they apply', async () => {
    const t = createTestPlatform();
    expectError(await t.call('GET', path, { key: null }), 401);
    expectError(await t.call('GET', path, { key: DEMO.sandbox.apiKey }), 403);
    expectError(
      await t.call('GET', 'demo/webhooks/30000000-0000-4000-8000-0000000000ff/events'),
      404,
    );
  });
});

describe('concurrent writes', () => {
  it('leave a consistent store: parallel creates, updates and deletes', async () => {
    const t = createTestPlatform({ rateLimit: false });
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, n) => t.call('POST', 'demo/webhooks', { body: hook(n % 30) })),
    );
    // 30 distinct uris: 30 created, the 10 duplicates refused.
    expect(created.filter((a) => a.status === 200)).toHaveLength(30);
    expect(created.filter((a) => a.status === 409)).toHaveLength(10);
    const ids = created.filter((a) => a.status === 200).map((a) => (a.body as { id: string }).id);

    const writes = await Promise.all([
      ...ids.slice(0, 10).map((id) => t.call('DELETE', `demo/webhooks/${id}`)),
      ...ids
        .slice(0, 10)
        .map((id) => t.call('PATCH', `demo/webhooks/${id}`, { body: { active: false } })),
      ...ids.slice(10, 20).map((id, n) =>
        t.call('PATCH', `demo/webhooks/${id}`, {
          body: { uri: `http://127.0.0.1:9/moved/${n % 5}` },
        }),
      ),
      ...ids
        .slice(20)
        .map((id) => t.call('PATCH', `demo/webhooks/${id}`, { body: { name: 'renamed' } })),
    ]);
    expect(writes.every((a) => [200, 404, 409].includes(a.status))).toBe(true);
    // Five distinct target uris for ten moves: five moved, five refused.
    expect(writes.slice(20, 30).filter((a) => a.status === 200)).toHaveLength(5);

    const listed = await listAll(t, 7);
    const stored = t.platform.store.webhooks.listByCommunity(DEMO.communityId);
    expect(listed).toEqual(stored.map((w) => w.id));
    expect(listed).toHaveLength(2 + 20);
    expect(new Set(stored.map((w) => new URL(w.uri).href)).size).toBe(stored.length);
    for (const id of ids.slice(0, 10)) expect(t.platform.store.webhooks.get(id)).toBeUndefined();
    for (const id of ids.slice(20)) expect(t.platform.store.webhooks.get(id)?.name).toBe('renamed');
  });
});

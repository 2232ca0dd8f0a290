import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATION_IDS } from '@questkit/core/api';
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  NetworkError,
  PlatformError,
  ResponseValidationError,
  TimeoutError,
} from './index.js';

// Every operation against the mock platform over real HTTP on loopback.

let mock: MockServer;
const rw = () =>
  createClient({ baseUrl: mock.url, subdomain: 'demo', apiKey: DEMO.apiKeys.readWrite });
const ada = DEMO.users.admin;

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
});
afterAll(() => mock.close());

/** A loopback server answering every request with `answer`. */
async function stub(
  answer: (index: number) => {
    status: number;
    body?: string;
    headers?: Record<string, string>;
    delayMs?: number;
  },
): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((request, response) => {
    const reply = answer(hits++);
    request.resume();
    setTimeout(() => {
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body ?? '');
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('every operation against the mock', () => {
  it('has one method per operationId', () => {
    const client = rw();
    for (const id of OPERATION_IDS) expect(typeof client[id]).toBe('function');
  });

  it('reads the community, its modules, members, invites, reviews and event types', async () => {
    const client = rw();
    expect((await client.getCommunity()).subdomain).toBe('demo');
    expect((await client.listModules()).length).toBeGreaterThan(0);
    const user = await client.getUser({ userId: ada });
    expect(user.id).toBe(ada);
    const found = await client.lookupUser({ email: 'ADA@example.com' });
    expect(found.id).toBe(ada);
    const invites = await client.listInvites({ userId: ada, page: 1, status: 'active' });
    expect(invites.every((invite) => invite.status === 'active')).toBe(true);
    expect(await client.getReviewCounts({ id: ada })).toEqual({
      flags: expect.any(Number),
      stars: expect.any(Number),
    });
    expect(await client.listWebhookEventTypes()).toContain('JOINED_COMMUNITY');
  });

  it('creates a quest and lists it; manages a webhook end to end; removes a connection', async () => {
    const client = rw();
    const quest = await client.createQuest({
      body: {
        categoryId: DEMO.modules.community,
        name: 'Client quest',
        published: true,
        recurrence: 'daily',
        conditionOperator: 'AND',
      },
    });
    const quests = await client.listQuests({ limit: 100 });
    expect(quests.map((item) => item.id)).toContain(quest.id);

    const { id } = await client.createWebhook({
      body: { name: 'client', uri: 'https://example.com/client-hook', active: true, events: [] },
    });
    expect(await client.updateWebhook({ webhookId: id, body: { active: false } })).toBeUndefined();
    const listed = await client.listWebhooks({ limit: 100 });
    expect(listed.items.find((hook) => hook.id === id)?.active).toBe(false);
    expect((await client.listWebhookDeliveries({ webhookId: id })).items).toEqual([]);
    expect(
      await client.deleteWebhook({
        webhookId: id,
        confirmationToken: '00000000-0000-4000-8000-000000000001',
      }),
    ).toBeUndefined();
    // ada connected the partner redirect URL in the seed: removed once, then none is left.
    expect(await client.deleteConnectAssociation({ userId: ada })).toBeUndefined();
    await expect(client.deleteConnectAssociation({ userId: ada })).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('errors', () => {
  it('throw PlatformError with the status, body and operationId of each declared error', async () => {
    const client = rw();
    const cases: [() => Promise<unknown>, number][] = [
      [() => client.getUser({ userId: 'not-a-uuid' }), 400],
      [() => createClient({ baseUrl: mock.url, subdomain: 'demo' }).getCommunity(), 401],
      [
        () =>
          createClient({
            baseUrl: mock.url,
            subdomain: 'demo',
            apiKey: DEMO.apiKeys.readOnly,
          }).createQuest({
            body: {
              categoryId: DEMO.modules.community,
              name: 'x',
              published: true,
              recurrence: 'daily',
              conditionOperator: 'AND',
            },
          }),
        403,
      ],
      [() => client.getUser({ userId: '00000000-0000-4000-8000-000000000000' }), 404],
      [
        () =>
          client.createWebhook({
            body: { name: 'dup', uri: 'http://127.0.0.1:4010/webhooks/joined', active: true },
          }),
        409,
      ],
    ];
    for (const [call, status] of cases) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, String(status)).toBeInstanceOf(PlatformError);
      expect(error).toMatchObject({
        status,
        retryable: false,
        body: { message: expect.any(String) },
      });
    }
    const notFound = await client
      .getUser({ userId: '00000000-0000-4000-8000-000000000000' })
      .catch((e) => e);
    expect(notFound).toMatchObject({ operationId: 'getUser', status: 404 });
  });

  it('a 429 with Retry-After is retried after the wait, then answered', async () => {
    const server = await stub((index) =>
      index === 0
        ? { status: 429, body: '{"message":"slow down"}', headers: { 'retry-after': '1' } }
        : { status: 200, body: '["JOINED_COMMUNITY"]' },
    );
    try {
      const client = createClient({ baseUrl: server.url, subdomain: 'demo', apiKey: 'k' });
      const started = performance.now();
      expect(await client.listWebhookEventTypes()).toEqual(['JOINED_COMMUNITY']);
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(server.hits()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('a 429 on a POST, with retries off or past the wait limit, is thrown as retryable', async () => {
    const server = await stub(() => ({
      status: 429,
      body: '{"message":"slow down"}',
      headers: { 'retry-after': '60' },
    }));
    try {
      const client = createClient({ baseUrl: server.url, subdomain: 'demo', apiKey: 'k' });
      const post = await client
        .createWebhook({ body: { name: 'n', uri: 'https://example.com/h', active: true } })
        .catch((e) => e);
      expect(post).toMatchObject({ status: 429, retryable: true, operationId: 'createWebhook' });
      expect(server.hits()).toBe(1);
      // A GET is not retried when Retry-After is beyond maxDelayMs (default 10 s).
      await expect(client.getCommunity()).rejects.toMatchObject({ status: 429 });
      expect(server.hits()).toBe(2);
      const off = createClient({ baseUrl: server.url, subdomain: 'demo', retry: false });
      await expect(off.getCommunity()).rejects.toMatchObject({ status: 429 });
      expect(server.hits()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('a slow answer is a TimeoutError; a refused connection a NetworkError', async () => {
    const server = await stub(() => ({ status: 200, body: '[]', delayMs: 2_000 }));
    try {
      const client = createClient({ baseUrl: server.url, subdomain: 'demo', timeoutMs: 100 });
      const error = await client.listModules().catch((e) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 100, retryable: true, status: 0 });
    } finally {
      await server.close();
    }
    const closed = createClient({ baseUrl: server.url, subdomain: 'demo' });
    await expect(closed.listModules()).rejects.toBeInstanceOf(NetworkError);
  });

  it('a caller’s abort rejects with the caller’s reason, not a timeout', async () => {
    const server = await stub(() => ({ status: 200, body: '[]', delayMs: 2_000 }));
    try {
      const client = createClient({ baseUrl: server.url, subdomain: 'demo' });
      const controller = new AbortController();
      const call = client.listModules({ signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user left')), 50);
      await expect(call).rejects.toThrow('user left');
    } finally {
      await server.close();
    }
  });

  it('an answer that breaks the contract names the field; validate: false returns it', async () => {
    const bad = [
      {
        id: 'm',
        name: 'Module',
        description: null,
        color: null,
        coverUrl: null,
        position: 'first',
      },
    ];
    const server = await stub(() => ({ status: 200, body: JSON.stringify(bad) }));
    try {
      const error = await createClient({ baseUrl: server.url, subdomain: 'demo' })
        .listModules()
        .catch((e) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.path).toBe('0.position');
      expect(error.message).toContain('0.position');
      const raw = await createClient({
        baseUrl: server.url,
        subdomain: 'demo',
        validate: false,
      }).listModules();
      expect(raw).toEqual(bad);
    } finally {
      await server.close();
    }
  });

  it('a path parameter of "." or ".." is refused before any request (a dot segment)', async () => {
    const server = await stub(() => ({ status: 200, body: '{}' }));
    try {
      const client = createClient({ baseUrl: server.url, subdomain: 'demo', validate: false });
      for (const value of ['.', '..']) {
        for (const call of [
          () => client.deleteWebhook({ webhookId: value }),
          () => client.getUser({ userId: value }),
          () => client.listInvites({ userId: value, page: 1 }),
        ]) {
          const error = await call().catch((e) => e);
          expect(error).toBeInstanceOf(TypeError);
          expect(error.message).toContain(`cannot be "${value}"`);
        }
        expect(() => createClient({ baseUrl: server.url, subdomain: value })).toThrow(TypeError);
      }
      expect(server.hits()).toBe(0);
      // Dots inside a value are plain characters, sent encoded as they are.
      await client.getUser({ userId: '...' }).catch(() => undefined);
      expect(server.hits()).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('paginate', () => {
  it('walks the quest list by cursor across pages, and stops at maxItems', async () => {
    const client = rw();
    const all = await client.listQuests({ limit: 100 });
    expect(all.length).toBeGreaterThanOrEqual(7);
    const walked: string[] = [];
    for await (const quest of client.paginate('listQuests', { limit: 3 })) walked.push(quest.id);
    expect(walked).toEqual(all.map((quest) => quest.id));
    const first5: string[] = [];
    for await (const quest of client.paginate('listQuests', { limit: 2, maxItems: 5 }))
      first5.push(quest.id);
    expect(first5).toEqual(walked.slice(0, 5));
  });

  it('walks webhooks by nextCursor, invites and deliveries by page number', async () => {
    const client = rw();
    for (let n = 0; n < 5; n++) {
      await client.createWebhook({
        body: { name: `page ${n}`, uri: `https://example.com/page-${n}`, active: false },
      });
    }
    const hooks = (await client.listWebhooks({ limit: 100 })).items.map((hook) => hook.id);
    const walkedHooks: string[] = [];
    for await (const hook of client.paginate('listWebhooks', { limit: 2 }))
      walkedHooks.push(hook.id);
    expect(walkedHooks).toEqual(hooks);
    expect(hooks.length).toBeGreaterThanOrEqual(6);

    const invites = await client.listInvites({ userId: ada, page: 1, page_size: 100 });
    expect(invites.length).toBeGreaterThanOrEqual(7);
    const walkedInvites: string[] = [];
    for await (const invite of client.paginate('listInvites', { userId: ada, page_size: 3 }))
      walkedInvites.push(invite.userId);
    expect(walkedInvites).toEqual(invites.map((invite) => invite.userId));

    // The seeded webhook has six delivery records: three pages of two.
    const deliveries = await client.listWebhookDeliveries({ webhookId: DEMO.webhooks.joined });
    const walkedDeliveries: string[] = [];
    for await (const record of client.paginate('listWebhookDeliveries', {
      webhookId: DEMO.webhooks.joined,
      limit: 2,
    }))
      walkedDeliveries.push(record.id);
    expect(deliveries.items.length).toBe(6);
    expect(walkedDeliveries).toEqual(deliveries.items.map((record) => record.id));
  });
});

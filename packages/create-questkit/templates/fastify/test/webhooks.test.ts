import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENV } from './env.js';
import { startApp } from './start.js';

// Webhook deliveries as the platform makes them: the mock creates the webhook (and its secret),
// the app receives a JOINED_COMMUNITY delivery with it, and the mock records the outcome.

let mock: MockServer;
let app: Awaited<ReturnType<typeof startApp>>;
const publicApi = (path: string, init: RequestInit = {}) =>
  fetch(`${mock.url}/public/communities/demo${path}`, {
    ...init,
    headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
  });

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
  // The webhook first, so the app starts with the secret the platform generated for it.
  const created = await publicApi('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      name: 'test',
      uri: 'http://127.0.0.1:9/webhooks',
      active: false,
      events: ['JOINED_COMMUNITY'],
    }),
  });
  const { id } = (await created.json()) as { id: string };
  const list = (await (await publicApi('/webhooks')).json()) as {
    items: { id: string; secret: string }[];
  };
  const secret = list.items.find((webhook) => webhook.id === id)!.secret;
  app = await startApp({ ...TEST_ENV, WEBHOOK_SECRET: secret });
  const updated = await publicApi(`/webhooks/${id}`, {
    method: 'PATCH',
    body: JSON.stringify({ uri: `${app.origin}/webhooks`, active: true }),
  });
  expect(updated.status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await mock?.close();
});

describe('the webhook receiver', () => {
  it('accepts a delivery from the platform', async () => {
    const joined = await fetch(`${mock.url}/__mock/communities/demo/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Newcomer' }),
    });
    expect(joined.status).toBe(200);
    const { deliveries } = (await joined.json()) as { deliveries: { status: string }[] };
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['success']);
  });

  it('refuses a delivery carrying another secret', async () => {
    const forged = await fetch(`${app.origin}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'event-1',
        type: 'JOINED_COMMUNITY',
        createdAt: new Date().toISOString(),
        communityId: 'community-1',
        subdomain: 'demo',
        data: { userId: 'u', name: 'n', referrerId: null, joinedAt: new Date().toISOString() },
        secret: 'whsec_guessed',
      }),
    });
    expect(forged.status).not.toBe(200);
  });
});

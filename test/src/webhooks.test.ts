import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { WebhookReceiverOptions } from '@questkit/core';
import { webhookEndpoint as expressWebhooks } from '@questkit/express';
import { webhookEndpoint as fastifyWebhooks } from '@questkit/fastify';
import { webhookEndpoint as honoWebhooks } from '@questkit/hono';
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import express from 'express';
import fc from 'fast-check';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The webhook receiver in each adapter, fed by the mock platform's real deliveries over HTTP on
// loopback, its retries walked on the mock's manual clock.

interface Receiver {
  url: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const ADAPTERS: Record<string, (options: WebhookReceiverOptions) => Promise<Receiver>> = {
  express: async (options) => {
    const app = express();
    // Before any body parser, as the README mounts it: the receiver reads the body itself,
    // within its size limit and deadline.
    app.post('/webhooks', webhookEndpoint(options));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks`, close: () => closeServer(server) };
  },
  fastify: async (options) => {
    const app = Fastify();
    await app.register(fastifyWebhooks, { path: '/webhooks', ...options });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${origin}/webhooks`, close: () => app.close() };
  },
  hono: async (options) => {
    const app = new Hono();
    app.post('/webhooks', honoWebhooks(options));
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      );
    });
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks`, close: () => closeServer(server) };
  },
};
const webhookEndpoint = expressWebhooks;

describe.each(Object.keys(ADAPTERS))('webhookEndpoint in %s, fed by the mock', (name) => {
  let mock: MockServer;
  let receiver: Receiver | undefined;
  let webhookId = '';
  const clock = createManualClock('2025-06-01T12:00:00Z');

  beforeEach(async () => {
    mock = await startMockServer(
      createMockPlatform({
        clock,
        endpointChecks: false,
        rateLimit: false,
        webhooks: { retryDelaysMs: [10_000, 20_000] },
      }),
      { port: 0 },
    );
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await mock.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${mock.url}/public/communities/demo${path}`, {
      ...init,
      headers: {
        'x-api-key': DEMO.apiKeys.readWrite,
        'content-type': 'application/json',
        ...init.headers,
      },
    });

  /** Starts the receiver and subscribes it; the webhook's secret, as the platform shows it. */
  async function subscribe(options: Omit<WebhookReceiverOptions, 'secret'>, secret?: string) {
    const created = await api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        name: `receiver ${Math.random()}`,
        uri: 'http://127.0.0.1:9/none',
        active: true,
        events: ['JOINED_COMMUNITY'],
      }),
    });
    const { id } = (await created.json()) as { id: string };
    webhookId = id;
    const { items } = (await (await api('/webhooks?limit=100')).json()) as {
      items: { id: string; secret: string }[];
    };
    const webhookSecret = items.find((item) => item.id === id)!.secret;
    receiver = await ADAPTERS[name]!({ secret: secret ?? webhookSecret, ...options });
    await api(`/webhooks/${id}`, { method: 'PATCH', body: JSON.stringify({ uri: receiver.url }) });
    return { id, secret: webhookSecret };
  }

  const join = async (member: string) => {
    const answer = await fetch(`${mock.url}/__mock/communities/demo/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: member }),
    });
    const { deliveries } = (await answer.json()) as {
      deliveries: { id: string; webhookId: string; status: string; tries: number }[];
    };
    // The demo seed's own webhooks get the event too: only ours is of interest.
    return { deliveries: deliveries.filter((item) => item.webhookId === webhookId) };
  };
  const delivery = async (id: string) =>
    (await (await fetch(`${mock.url}/__mock/webhooks/deliveries/${id}`)).json()) as {
      status: string;
      tries: number;
      attempts: { status: number | null }[];
    };

  it('handles a delivery, typed, and answers 200', async () => {
    const welcomed: string[] = [];
    await subscribe({
      on: { JOINED_COMMUNITY: (event) => void welcomed.push(event.data.user.name ?? '') },
    });
    const { deliveries } = await join('zoe');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 'success', tries: 1 });
    expect(welcomed).toEqual(['zoe']);
  });

  it('answers 500 when the handler throws, and succeeds on the scheduled retry', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    await subscribe({
      on: {
        JOINED_COMMUNITY: () => {
          calls++;
          if (calls === 1) throw new Error('db down');
        },
      },
      onError: (error) => errors.push(error),
    });
    const { deliveries } = await join('yan');
    expect(deliveries[0]).toMatchObject({ status: 'failed', tries: 1 });
    expect((await delivery(deliveries[0]!.id)).attempts[0]?.status).toBe(500);
    await fetch(`${mock.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ms":10000}',
    });
    expect(await delivery(deliveries[0]!.id)).toMatchObject({ status: 'success', tries: 2 });
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('answers 500 until the delivery is exhausted when the handler always throws', async () => {
    await subscribe({
      on: { JOINED_COMMUNITY: () => Promise.reject(new Error('always')) },
      onError: () => {},
    });
    const { deliveries } = await join('xia');
    for (const ms of [10_000, 20_000]) {
      await fetch(`${mock.url}/__mock/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
    }
    const record = await delivery(deliveries[0]!.id);
    expect(record).toMatchObject({ status: 'exhausted', tries: 3 });
    expect(record.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500]);
  });

  it('deduplicates a replayed delivery', async () => {
    let calls = 0;
    await subscribe({ on: { JOINED_COMMUNITY: () => void calls++ } });
    const { deliveries } = await join('wes');
    const replay = await fetch(
      `${mock.url}/__mock/webhooks/deliveries/${deliveries[0]!.id}/replay`,
      { method: 'POST' },
    );
    const replayed = (await replay.json()) as { deliveries: { status: string }[] };
    expect(replayed.deliveries.map((item) => item.status)).toEqual(['success']);
    expect(calls).toBe(1);
  });

  it('refuses a forged or missing secret with 401, and accepts an unknown event type', async () => {
    let calls = 0;
    const { secret } = await subscribe({ on: { JOINED_COMMUNITY: () => void calls++ } });
    const event = {
      id: 'evt-1',
      type: 'JOINED_COMMUNITY',
      time: 1_748_779_200_000,
      data: {
        community: {
          id: 'c',
          name: 'Demo',
          subdomain: 'demo',
          blockchain: 'ethereum',
          discord: null,
          twitter: null,
          website: null,
        },
        user: { id: 'u', name: null, twitter: null, discord: null, email: null, addresses: {} },
      },
    };
    const post = (body: unknown) =>
      fetch(receiver!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const forged = await post({ ...event, secret: `${secret}x` });
    expect(forged.status).toBe(401);
    expect(await forged.text()).not.toContain(secret);
    expect((await post(event)).status).toBe(401);
    const unknown = await post({ ...event, id: 'evt-2', type: 'BADGE_EARNED', secret });
    expect(unknown.status).toBe(200);
    expect(calls).toBe(0);
  });

  it('refuses a 1 MB body and a body trickled past the deadline with 400', async () => {
    const { secret } = await subscribe({ on: {}, timeoutMs: 300 });
    const big = await fetch(receiver!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret, pad: 'x'.repeat(1024 * 1024) }),
    });
    expect(big.status).toBe(400);
    const trickled = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        receiver!.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"secret":');
      const timer = setInterval(() => req.write(' '), 100);
      req.on('close', () => clearInterval(timer));
      setTimeout(() => {
        clearInterval(timer);
        req.destroy();
      }, 5_000).unref();
    });
    expect(trickled).toBe(400);
  });

  it('answers only its statuses and never leaks the secret, whatever it is sent', async () => {
    const { secret } = await subscribe({ on: { JOINED_COMMUNITY: () => {} } });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc
            .record({
              secret: fc.oneof(fc.constant(secret), fc.string()),
              id: fc.string(),
              type: fc.string(),
              data: fc.anything(),
            })
            .map((v) => JSON.stringify(v)),
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        async (body, type) => {
          const answer = await fetch(receiver!.url, {
            method: 'POST',
            headers: { 'content-type': type },
            body,
          });
          const text = await answer.text();
          expect([200, 400, 401, 500]).toContain(answer.status);
          expect(JSON.parse(text)).toEqual({ message: expect.any(String) });
          expect(text).not.toContain(secret);
        },
      ),
      { numRuns: 60, seed: 20240611 },
    );
  });
});

describe('webhookEndpoint in express, with a JSON parser on its route', () => {
  it('answers bad JSON and a body over the parser limit with 400 {message}, never HTML', async () => {
    const app = express();
    app.post(
      '/webhooks',
      express.json({ limit: '1kb' }),
      expressWebhooks({ secret: 's3cret', on: {} }),
    );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const post = (body: string) =>
        fetch(`http://127.0.0.1:${port}/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
      const bad = await post('{"secret": ');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ message: 'The delivery is not valid JSON.' });
      const large = await post(JSON.stringify({ secret: 's3cret', pad: 'x'.repeat(4096) }));
      expect(large.status).toBe(400);
      expect(await large.json()).toEqual({ message: 'The delivery is too large.' });
    } finally {
      await closeServer(server);
    }
  });
});

/**
 * The webhook receiver's dedupe as an attacker (or an eager platform) tries it, over real HTTP
 * through each adapter: copies of one delivery sent at once, while the first copy's handler still
 * runs. Before the atomic claim, the receiver checked the event id before the handler and recorded
 * it after, so five concurrent copies ran the handler five times. Now one copy runs it; the
 * others are told to retry later (409) or, once it is done, "Already handled.".
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { WebhookReceiverOptions } from '@questkit/core';
import { webhookEndpoint as expressWebhooks } from '@questkit/express';
import { webhookEndpoint as fastifyWebhooks } from '@questkit/fastify';
import { webhookEndpoint as honoWebhooks } from '@questkit/hono';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { n, record } from '../report/record.js';

const AREA = 'Attacks: webhook dedupe race';
const SECRET = 'whsec_dedupe_race';
const COPIES = 5;
const ROUNDS = 10;

interface Receiver {
  url: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const RECEIVERS: Record<string, (options: WebhookReceiverOptions) => Promise<Receiver>> = {
  'express 5': async (options) => {
    const app = express();
    app.post('/webhooks', expressWebhooks(options));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks`, close: () => closeServer(server) };
  },
  'fastify 5': async (options) => {
    const app = Fastify();
    await app.register(fastifyWebhooks, { path: '/webhooks', ...options });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${origin}/webhooks`, close: () => app.close() };
  },
  'hono 4': async (options) => {
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

const event = (id: string) => ({
  id,
  type: 'JOINED_COMMUNITY',
  time: 1_748_779_200_000,
  data: {
    community: {
      id: 'c-1',
      name: 'Demo',
      subdomain: 'demo',
      blockchain: null,
      discord: null,
      twitter: null,
      website: null,
    },
    user: { id: 'u-1', name: 'zoe', twitter: null, discord: null, email: null, addresses: {} },
  },
  secret: SECRET,
});

describe.each(Object.keys(RECEIVERS))('webhook dedupe race in %s', (name) => {
  it(`runs the handler once for ${COPIES} concurrent copies of one delivery`, async () => {
    const runs = new Map<string, number>();
    const receiver = await RECEIVERS[name]!({
      secret: SECRET,
      on: {
        // A handler that takes a moment, as one that writes to a database does: the window in
        // which the other copies arrive.
        JOINED_COMMUNITY: async (delivered) => {
          runs.set(delivered.id, (runs.get(delivered.id) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
    });
    const statuses = new Map<string, number>();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const body = JSON.stringify(event(`evt-race-${round}`));
        const answers = await Promise.all(
          Array.from({ length: COPIES }, () =>
            fetch(receiver.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
              signal: AbortSignal.timeout(10_000),
            }),
          ),
        );
        for (const answer of answers) {
          const { message } = (await answer.json()) as { message: string };
          const outcome = `${answer.status} ${message === 'Handled.' ? 'handled' : message === 'Already handled.' ? 'already handled' : 'retry later'}`;
          statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
        }
        // A retry after the first copy finished is answered without a second run.
        const retry = await fetch(receiver.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        expect(await retry.json()).toEqual({ message: 'Already handled.' });
      }
    } finally {
      await receiver.close();
    }
    const total = [...runs.values()].reduce((sum, count) => sum + count, 0);
    const extra = total - ROUNDS;
    record({
      area: AREA,
      subject: name,
      requests: ROUNDS * (COPIES + 1),
      faults: ROUNDS * (COPIES - 1),
      held: `${ROUNDS} rounds of ${COPIES} concurrent copies of one delivery: the handler ran ${n(total)} times for ${ROUNDS} events (before the atomic claim: ${COPIES} times per event); answers ${[
        ...statuses,
      ]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([outcome, count]) => `${n(count)} × ${outcome}`)
        .join(', ')}; each retry after it "Already handled."`,
      violations: Math.max(0, extra),
    });
    expect([...runs.values()]).toEqual(Array.from({ length: ROUNDS }, () => 1));
    // One copy per round ran it; each other copy was told to retry later, or, arriving after the
    // run ended, that it was handled.
    expect(statuses.get('200 handled')).toBe(ROUNDS);
    expect(
      (statuses.get('409 retry later') ?? 0) + (statuses.get('200 already handled') ?? 0),
    ).toBe(ROUNDS * (COPIES - 1));
  });
});

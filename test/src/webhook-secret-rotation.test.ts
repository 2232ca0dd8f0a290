import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sampleEvent } from '@questkit/conformance';
import type { WebhookReceiverOptions } from '@questkit/core';
import { webhookEndpoint as expressWebhooks } from '@questkit/express';
import { webhookEndpoint as fastifyWebhooks } from '@questkit/fastify';
import { webhookEndpoint as honoWebhooks } from '@questkit/hono';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A webhook secret rotation, attacked over real HTTP in each adapter: every secret of the list
// (not only the first) is accepted, a secret removed from the list is refused, and near misses of
// a listed secret (prefix, suffix, case, padding, two joined, another JSON type) are refused.
// core's receiver.test.ts checks a list of two in-process; this is the other angle.

const NEWEST = 'whsec_rotation_newest_4f1c';
const CURRENT = 'whsec_rotation_current_9a7e';
const LEAVING = 'whsec_rotation_leaving_20b3';
const RETIRED = 'whsec_rotation_retired_77d0';

interface Receiver {
  url: string;
  handled: string[];
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const ADAPTERS: Record<string, (options: WebhookReceiverOptions) => Promise<Server | string>> = {
  express: async (options) => {
    const app = express();
    app.post('/webhooks', expressWebhooks(options));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return server;
  },
  fastify: async (options) => {
    const app = Fastify();
    await app.register(fastifyWebhooks, { path: '/webhooks', ...options });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server;
  },
  hono: async (options) => {
    const app = new Hono();
    app.post('/webhooks', honoWebhooks(options));
    return new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      );
    });
  },
};

let sequence = 0;
/** A JOINED_COMMUNITY delivery with its own event id, carrying `secret` as the platform does. */
const JOINED = sampleEvent('JOINED_COMMUNITY', {
  communityId: 'c-1',
  subdomain: 'demo',
  userId: 'u-1',
  questId: 'q-1',
});
const delivery = (secret: unknown) => ({ ...JOINED, id: `evt-rotation-${++sequence}`, secret });

describe.each(Object.keys(ADAPTERS))('a webhook secret rotation in %s', (name) => {
  let receiver: Receiver;
  beforeAll(async () => {
    const handled: string[] = [];
    // The rotation as a community runs it: the newest first, the current one, one on its way out.
    const server = (await ADAPTERS[name]!({
      secret: [NEWEST, CURRENT, LEAVING],
      on: { JOINED_COMMUNITY: (event) => void handled.push(event.id) },
    })) as Server;
    const { port } = server.address() as AddressInfo;
    receiver = {
      url: `http://127.0.0.1:${port}/webhooks`,
      handled,
      close: () => closeServer(server),
    };
  });
  afterAll(() => receiver.close());

  const send = async (body: unknown) => {
    const answer = await fetch(receiver.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, text: await answer.text() };
  };

  it('accepts every secret of the list, the last as well as the first', async () => {
    for (const secret of [LEAVING, CURRENT, NEWEST]) {
      const event = delivery(secret);
      expect((await send(event)).status, secret).toBe(200);
      expect(receiver.handled).toContain(event.id);
    }
  });

  it('refuses a secret removed from the list, and near misses of each listed one', async () => {
    const before = receiver.handled.length;
    const attempts: unknown[] = [RETIRED, '', null, 0, [CURRENT], { secret: CURRENT }];
    for (const secret of [NEWEST, CURRENT, LEAVING]) {
      attempts.push(
        secret.slice(0, -1),
        secret.slice(1),
        `${secret}x`,
        `x${secret}`,
        `${secret} `,
        ` ${secret}`,
        secret.toUpperCase(),
        `${secret}\u0000`,
      );
    }
    attempts.push(
      `${NEWEST}${CURRENT}`,
      `${NEWEST},${CURRENT}`,
      [NEWEST, CURRENT, LEAVING].join(' '),
    );
    const answers: string[] = [];
    for (const secret of attempts) {
      const answer = await send(delivery(secret));
      answers.push(`${JSON.stringify(secret)} -> ${answer.status}`);
      for (const listed of [NEWEST, CURRENT, LEAVING]) expect(answer.text).not.toContain(listed);
    }
    expect(answers.filter((line) => !line.endsWith('-> 401'))).toEqual([]);
    expect(receiver.handled).toHaveLength(before);
  });
});

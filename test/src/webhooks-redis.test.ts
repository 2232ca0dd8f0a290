import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { sampleEvent } from '@questkit/conformance';
import {
  createRedisDedupe,
  type RedisDedupeClient,
  type WebhookReceiverOptions,
} from '@questkit/core';
import { webhookEndpoint } from '@questkit/hono';
import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from './redis.testkit.js';

// Several instances of a webhook receiver on one real Redis (redis-server on a loopback port, no
// persistence): processes that share it, a throwing handler retried by the mock platform on its
// manual clock, and Redis stopped in the middle of a run.

const SECRET = 'whsec_redis_instances';
const testDir = fileURLToPath(new URL('.', import.meta.url));

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** A receiver process: its URL, and the ids its handler ran for, in order. */
interface Instance {
  url: string;
  ran: string[];
  child: ChildProcess;
}

function startInstance(adapter: 'express' | 'hono', client: 'redis' | 'ioredis') {
  return new Promise<Instance>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'fixtures/redis-receiver.ts'], {
      cwd: testDir,
      env: {
        ...process.env,
        REDIS_URL: redis.url,
        WEBHOOK_SECRET: SECRET,
        ADAPTER: adapter,
        CLIENT: client,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const instance: Instance = { url: '', ran: [], child };
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no URL in 20 s:\n${output}`)), 20_000);
    child.stdout!.setEncoding('utf8');
    let pending = '';
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const [word, value] = line.split(' ');
        if (word === 'ran') instance.ran.push(value!);
        if (word === 'listening') {
          instance.url = value!;
          clearTimeout(timer);
          resolve(instance);
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited early:\n${output}`));
    });
  });
}

const JOINED = sampleEvent('JOINED_COMMUNITY', {
  communityId: 'c-1',
  subdomain: 'demo',
  userId: 'u-1',
  questId: 'q-1',
});
const event = (id: string) => ({ ...JOINED, id, secret: SECRET });

/** Waits until `check` holds, polling every 20 ms for at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5_000) {
  for (let waited = 0; !(await check()) && waited < ms; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('two receiver processes on one Redis', () => {
  const instances: Instance[] = [];
  afterAll(() => {
    for (const instance of instances) instance.child.kill('SIGKILL');
  });

  it('run the handler exactly once when the same delivery reaches both at once, 20 times', async () => {
    instances.push(
      ...(await Promise.all([startInstance('express', 'redis'), startInstance('hono', 'ioredis')])),
    );
    const [a, b] = instances as [Instance, Instance];
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const body = JSON.stringify(event(`evt-two-${round}`));
      // Two copies to each instance, all at once.
      const answers = await Promise.all(
        [a, a, b, b].map((instance) =>
          fetch(instance.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(10_000),
          }).then(
            async (answer) =>
              `${answer.status} ${((await answer.json()) as { message: string }).message}`,
          ),
        ),
      );
      outcomes.push(...answers);
    }
    await until(() => a.ran.length + b.ran.length >= 20);
    const runs = [...a.ran, ...b.ran].sort();
    expect(runs).toEqual(Array.from({ length: 20 }, (_, round) => `evt-two-${round}`).sort());
    expect(outcomes.filter((outcome) => outcome === '200 Handled.')).toHaveLength(20);
    for (const outcome of outcomes) {
      expect([
        '200 Handled.',
        '200 Already handled.',
        '409 The event is being handled by another delivery; retry later.',
      ]).toContain(outcome);
    }
    // Had the instances not shared the claim, each would have run every event (40 runs).
  }, 60_000);
});

/** A connected client of each library, failing fast while Redis is down. */
const CLIENTS: Record<
  string,
  () => Promise<{
    client: RedisDedupeClient;
    close(): void;
    ping(): Promise<boolean>;
    exists(key: string): Promise<number>;
  }>
> = {
  'node-redis': async () => {
    const client = createClient({ url: redis.url, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      close: () => client.destroy(),
      ping: () =>
        client.ping().then(
          () => true,
          () => false,
        ),
      exists: (key) => client.exists(key),
    };
  },
  ioredis: async () => {
    const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    await new Promise((resolve) => client.once('ready', resolve));
    return {
      client,
      close: () => client.disconnect(),
      ping: () =>
        client.ping().then(
          () => true,
          () => false,
        ),
      exists: (key) => client.exists(key),
    };
  },
};

describe.each(Object.keys(CLIENTS))('a receiver on Redis (%s), fed by the mock', (clientName) => {
  let mock: MockServer;
  let server: Server | undefined;
  let store: Awaited<ReturnType<(typeof CLIENTS)[string]>>;
  const clock = createManualClock('2025-06-01T12:00:00Z');

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${mock.url}/public/communities/demo${path}`, {
      ...init,
      headers: {
        'x-api-key': DEMO.apiKeys.readWrite,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
  const advance = (ms: number) =>
    fetch(`${mock.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms }),
    });
  const delivery = async (id: string) =>
    (await (await fetch(`${mock.url}/__mock/webhooks/deliveries/${id}`)).json()) as {
      status: string;
      tries: number;
      attempts: { status: number | null }[];
      payload: { id: string };
    };

  /** Serves a receiver with `on` and subscribes it; returns a function that joins a member. */
  async function subscribe(
    on: (eventId: string) => void | Promise<void>,
    onError: NonNullable<WebhookReceiverOptions['onError']> = () => {},
  ) {
    const created = await api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        name: `redis ${Math.random()}`,
        uri: 'http://127.0.0.1:9/none',
        active: true,
        events: ['JOINED_COMMUNITY'],
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const { items } = (await (await api('/webhooks?limit=100')).json()) as {
      items: { id: string; secret: string }[];
    };
    const app = new Hono();
    app.post(
      '/webhooks',
      webhookEndpoint({
        secret: items.find((item) => item.id === id)!.secret,
        dedupe: createRedisDedupe(store.client, { prefix: `test:${clientName}:` }),
        on: { JOINED_COMMUNITY: (joined) => on(joined.id) },
        onError,
      }),
    );
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve(info.port),
      ) as Server;
    });
    await api(`/webhooks/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ uri: `http://127.0.0.1:${port}/webhooks` }),
    });
    return async (member: string) => {
      const answer = await fetch(`${mock.url}/__mock/communities/demo/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: member }),
      });
      const { deliveries } = (await answer.json()) as {
        deliveries: { id: string; webhookId: string; status: string; eventId?: string }[];
      };
      return deliveries.filter((item) => item.webhookId === id);
    };
  }

  beforeAll(async () => {
    store = await CLIENTS[clientName]!();
  });
  afterAll(() => store?.close());
  afterEach(async () => {
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
    server = undefined;
    await mock.close();
  });
  const startMock = async () => {
    mock = await startMockServer(
      createMockPlatform({
        clock,
        endpointChecks: false,
        rateLimit: false,
        webhooks: { retryDelaysMs: [10_000, 20_000] },
      }),
      { port: 0 },
    );
  };

  it('releases the claim of a throwing handler, and the retry on the mock clock runs it once', async () => {
    await startMock();
    const runs: string[] = [];
    const errors: string[] = [];
    const join = await subscribe(
      (id) => {
        runs.push(id);
        if (runs.length === 1) throw new Error('database down');
      },
      () => void errors.push('handler'),
    );
    const [first] = await join('yan');
    expect(first).toMatchObject({ status: 'failed' });
    expect((await delivery(first!.id)).attempts.map((attempt) => attempt.status)).toEqual([500]);
    await advance(10_000);
    expect(await delivery(first!.id)).toMatchObject({ status: 'success', tries: 2 });
    // A replay of the handled event is answered without a run.
    await fetch(`${mock.url}/__mock/webhooks/deliveries/${first!.id}/replay`, { method: 'POST' });
    expect(runs).toHaveLength(2);
    expect(runs[0]).toBe(runs[1]);
    expect(errors).toEqual(['handler']);
  }, 30_000);

  it('answers 500 while Redis is stopped, runs nothing, marks nothing; after a restart the retries run once', async () => {
    await startMock();
    const runs: string[] = [];
    const reasons: string[] = [];
    const join = await subscribe(
      (id) => void runs.push(id),
      (_, info) => void reasons.push(info.reason),
    );
    const [before] = await join('before-stop');
    expect(before).toMatchObject({ status: 'success' });
    expect(runs).toHaveLength(1);

    await redis.stop();
    const during = [...(await join('during-1')), ...(await join('during-2'))];
    expect(during.map((item) => item.status)).toEqual(['failed', 'failed']);
    for (const item of during) {
      expect((await delivery(item.id)).attempts.map((attempt) => attempt.status)).toEqual([500]);
    }
    expect(runs).toHaveLength(1);
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect(new Set(reasons)).toEqual(new Set(['dedupe_error']));

    await redis.start();
    await until(() => store.ping(), 10_000);
    expect(await store.ping()).toBe(true);
    // Nothing of the failed deliveries reached the store: no claim, no done mark.
    for (const item of during) {
      const { payload } = await delivery(item.id);
      expect(await store.exists(`test:${clientName}:${payload.id}`)).toBe(0);
    }
    expect(runs).toHaveLength(1);
    await advance(10_000);
    for (const item of during) {
      expect(await delivery(item.id)).toMatchObject({ status: 'success', tries: 2 });
    }
    expect(runs).toHaveLength(3);
    expect(new Set(runs).size).toBe(3);
    // And a second retry wave (replays) runs nothing more.
    for (const item of during) {
      await fetch(`${mock.url}/__mock/webhooks/deliveries/${item.id}/replay`, { method: 'POST' });
    }
    expect(runs).toHaveLength(3);
  }, 60_000);
});

import {
  createMemoryDedupe,
  createRedisDedupe,
  type DedupeLifetimes,
  type WebhookDedupe,
} from '@questkit/core';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from './redis.testkit.js';

// The webhook dedupe contract, the same tests for every store: the memory store and the Redis
// store over each client library, against a real redis-server.

let redis: TestRedis;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const close of closers) await close();
  await redis?.stop();
});

let prefixes = 0;
const STORES: Record<string, (lifetimes?: DedupeLifetimes) => Promise<WebhookDedupe>> = {
  memory: async (lifetimes) => createMemoryDedupe(lifetimes),
  'redis (node-redis)': async (lifetimes) => {
    const client = createClient({ url: redis.url, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    closers.push(() => client.destroy());
    return createRedisDedupe(client, { prefix: `contract:${prefixes++}:`, ...lifetimes });
  },
  'redis (ioredis)': async (lifetimes) => {
    const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    await new Promise((resolve) => client.once('ready', resolve));
    closers.push(() => client.disconnect());
    return createRedisDedupe(client, { prefix: `contract:${prefixes++}:`, ...lifetimes });
  },
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(Object.keys(STORES))('the dedupe contract: %s', (name) => {
  const make = STORES[name]!;

  it('claims an id once; done ids are done; ids are independent', async () => {
    const store = await make();
    expect(await store.claim('a', 't1')).toBe('claimed');
    expect(await store.claim('a', 't2')).toBe('busy');
    expect(await store.claim('b', 't3')).toBe('claimed');
    await store.done('a', 't1');
    expect(await store.claim('a', 't4')).toBe('done');
    expect(await store.claim('b', 't5')).toBe('busy');
  });

  it('gives exactly one of 20 concurrent claims of one id', async () => {
    const store = await make();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.claim('race', `t${index}`)),
    );
    expect(results.filter((result) => result === 'claimed')).toHaveLength(1);
    expect(results.filter((result) => result === 'busy')).toHaveLength(19);
  });

  it('releases a claim only for the token that holds it', async () => {
    const store = await make();
    expect(await store.claim('r', 'holder')).toBe('claimed');
    await store.release('r', 'someone-else');
    expect(await store.claim('r', 'late')).toBe('busy');
    await store.release('r', 'holder');
    expect(await store.claim('r', 'next')).toBe('claimed');
    // Releasing after done changes nothing.
    await store.done('r', 'next');
    await store.release('r', 'next');
    expect(await store.claim('r', 'again')).toBe('done');
  });

  // A short lifetime asserts only what a slow machine cannot undo: that it has passed. What must
  // still hold within a lifetime is asserted with a lifetime far above a busy machine's delays.

  it('lets an abandoned claim expire', async () => {
    const store = await make({ claimTtlMs: 40 });
    expect(await store.claim('x', 'crashed')).toBe('claimed');
    await pause(120);
    expect(await store.claim('x', 'successor')).toBe('claimed');
  });

  it('does not let an expired claim release its successor', async () => {
    const store = await make({ claimTtlMs: 2_000 });
    expect(await store.claim('y', 'crashed')).toBe('claimed');
    await pause(2_200);
    expect(await store.claim('y', 'successor')).toBe('claimed');
    await store.release('y', 'crashed');
    expect(await store.claim('y', 'third')).toBe('busy');
  });

  // That a done id is remembered within its lifetime is the first test's, with the default one.
  it('forgets a done id after its lifetime', async () => {
    const store = await make({ doneTtlMs: 40 });
    expect(await store.claim('d', 't1')).toBe('claimed');
    await store.done('d', 't1');
    await pause(120);
    // Without the done mark, t1's claim would still hold the id for its lifetime (busy).
    expect(await store.claim('d', 't3')).toBe('claimed');
  });
});

describe('createRedisDedupe', () => {
  it('throws at start-up for something that is not a client, or a bad lifetime', () => {
    expect(() => createRedisDedupe({} as never)).toThrow(
      /\[@questkit\/core\] webhooks: createRedisDedupe needs a connected node-redis or ioredis client/,
    );
    const client = { sendCommand: async () => 'OK' };
    expect(() => createRedisDedupe(client, { claimTtlMs: 0 })).toThrow(/claimTtlMs/);
    expect(() => createRedisDedupe(client, { doneTtlMs: 1.5 })).toThrow(/doneTtlMs/);
  });

  it('rejects every call while Redis is unreachable (node-redis and ioredis without offline queue)', async () => {
    const down = await startRedis();
    const nodeRedis = createClient({ url: down.url, disableOfflineQueue: true });
    nodeRedis.on('error', () => {});
    await nodeRedis.connect();
    const ioredis = new Redis(down.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    ioredis.on('error', () => {});
    await new Promise((resolve) => ioredis.once('ready', resolve));
    try {
      await down.stop();
      for (const store of [createRedisDedupe(nodeRedis), createRedisDedupe(ioredis)]) {
        await expect(store.claim('e', 't')).rejects.toThrow();
        await expect(Promise.resolve(store.done('e', 't'))).rejects.toThrow();
        await expect(Promise.resolve(store.release('e', 't'))).rejects.toThrow();
      }
    } finally {
      nodeRedis.destroy();
      ioredis.disconnect();
    }
  });
});

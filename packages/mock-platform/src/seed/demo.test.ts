import { fileURLToPath } from 'node:url';
import { IDENTIFICATION_METHODS } from '@questkit/core';
import { INVITE_STATUSES, USER_ROLES } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { readFixtures } from '../fixtures-file.js';
import { createMockPlatform } from '../platform.js';
import { createMemoryStore } from '../store/memory.js';
import type { UserRecord } from '../store/records.js';
import { seedDemo } from './demo.js';
import { DEMO, generatedUserId } from './demo-ids.js';

function seeded(users: number) {
  const store = createMemoryStore();
  seedDemo(store, { users });
  return store;
}

describe('demo seed', () => {
  it('is deterministic', () => {
    expect(seeded(50).snapshot()).toEqual(seeded(50).snapshot());
  });

  it('generates member i the same way whatever the number of members', () => {
    const few = seeded(10).users.get(generatedUserId(7));
    const many = seeded(200).users.get(generatedUserId(7));
    expect({ ...few, rank: 0 }).toEqual({ ...many, rank: 0 });
  });

  it('covers every field variant among the named members', () => {
    const store = seeded(0);
    const named = Object.values(DEMO.users).map((id) => store.users.get(id)!);
    expect(named.every(Boolean)).toBe(true);
    const nullableFields = [
      'avatar',
      'name',
      'email',
      'connectedWallet',
      'discordId',
      'discordHandle',
      'twitterId',
      'twitterUsername',
      'tiktokUsername',
      'referrerUrl',
      'referrerId',
      'banReason',
      'deletedAt',
      'role',
    ] as const satisfies readonly (keyof UserRecord)[];
    for (const field of nullableFields) {
      expect(
        named.some((user) => user[field] === null),
        `${field} null`,
      ).toBe(true);
      expect(
        named.some((user) => user[field] !== null),
        `${field} set`,
      ).toBe(true);
    }
    for (const role of USER_ROLES)
      expect(
        named.some((user) => user.role === role),
        role,
      ).toBe(true);
    const banned = store.users.get(DEMO.users.banned)!;
    expect([banned.isBanned, banned.role, banned.banReason !== null]).toEqual([
      true,
      'banned',
      true,
    ]);
    expect(store.users.get(DEMO.users.deleted)!.deletedAt).not.toBeNull();
    const restored = store.users.get(DEMO.users.restored)!;
    expect([restored.deletedAt, restored.restoredAt !== null]).toEqual([null, true]);
    expect(named.some((u) => Object.keys(u.verifiedBlockchainAddresses).length > 0)).toBe(true);
    expect(named.some((u) => Object.keys(u.unVerifiedBlockchainAddresses).length > 0)).toBe(true);
    // The admin has every linked account type, the connect association included.
    const admin = store.users.get(DEMO.users.admin)!;
    for (const field of [
      'email',
      'connectedWallet',
      'discordId',
      'twitterId',
      'tiktokUsername',
    ] as const) {
      expect(admin[field]).not.toBeNull();
    }
    expect(store.connections.listByUser(admin.id)).toHaveLength(1);
  });

  it('has invites in all three states, quests in several modules with an API task per method, webhooks', () => {
    const store = seeded(100);
    const invites = store.invites.listByInviter(DEMO.users.admin);
    for (const status of INVITE_STATUSES)
      expect(
        invites.some((i) => i.status === status),
        status,
      ).toBe(true);
    const quests = store.quests.listByCommunity(DEMO.communityId);
    expect(new Set(quests.map((q) => q.categoryId)).size).toBe(3);
    const methods = new Set(
      quests.flatMap((q) =>
        q.tasks.filter((t) => t.type === 'api').flatMap((t) => t.settings.identifications ?? []),
      ),
    );
    expect([...methods].sort()).toEqual([...IDENTIFICATION_METHODS].sort());
    expect(
      quests.some((q) => q.archived) &&
        quests.some((q) => q.deleted) &&
        quests.some((q) => !q.published),
    ).toBe(true);
    const webhooks = store.webhooks.listByCommunity(DEMO.communityId);
    expect(webhooks).toHaveLength(2);
    // The counters add up with the delivery records.
    for (const webhook of webhooks) {
      const records = store.deliveries.listByWebhook(webhook.id);
      for (const status of ['success', 'failed', 'exhausted'] as const) {
        expect(webhook[status]).toBe(records.filter((r) => r.status === status).length);
      }
    }
  });

  it('ranks active members by xp, highest first', () => {
    const store = seeded(40);
    const active = [...store.users.list()].filter(
      (u) => u.communityId === DEMO.communityId && u.deletedAt === null,
    );
    const ranks = active.map((u) => u.rank).sort((a, b) => a - b);
    expect(ranks).toEqual(active.map((_, i) => i + 1));
    const first = active.find((u) => u.rank === 1)!;
    expect(active.every((u) => u.xp <= first.xp)).toBe(true);
  });

  it('is a fixtures file: loaded with --fixtures it is the demo without generated members', async () => {
    const file = fileURLToPath(new URL('./demo.json', import.meta.url));
    const loaded = createMemoryStore(await readFixtures(file));
    expect(loaded.snapshot()).toEqual(seeded(0).snapshot());
  });

  it('holds every record DEMO names', () => {
    const store = seeded(0);
    const { sandbox } = DEMO;
    expect(store.communities.getBySubdomain(DEMO.subdomain)?.id).toBe(DEMO.communityId);
    expect(store.communities.getBySubdomain(sandbox.subdomain)?.id).toBe(sandbox.communityId);
    const keys = store.apiKeys.list().map((key) => [key.key, key.scope]);
    expect(keys).toEqual([
      [DEMO.apiKeys.readWrite, 'read-write'],
      [DEMO.apiKeys.readOnly, 'read-only'],
      [sandbox.apiKey, 'read-write'],
    ]);
    expect(store.communities.get(DEMO.communityId)?.connectSecret).toBe(DEMO.connectSecret);
    expect(store.communities.get(sandbox.communityId)?.connectSecret).toBe(sandbox.connectSecret);
    for (const id of [...Object.values(DEMO.users), ...Object.values(sandbox.users)])
      expect(store.users.get(id), id).toBeDefined();
    for (const id of [...Object.values(DEMO.modules), sandbox.module])
      expect(store.modules.get(id), id).toBeDefined();
    for (const id of [...Object.values(DEMO.quests), sandbox.quest])
      expect(store.quests.get(id), id).toBeDefined();
    for (const id of Object.values(DEMO.webhooks)) expect(store.webhooks.get(id), id).toBeDefined();
    for (const id of Object.values(DEMO.reviews)) expect(store.reviews.get(id), id).toBeDefined();
    for (const id of Object.values(DEMO.sprints)) expect(store.sprints.get(id), id).toBeDefined();
    const tasks = store.quests.listByCommunity(DEMO.communityId).flatMap((quest) => quest.tasks);
    const api = tasks.filter((task) => task.type === 'api');
    expect(api.every((task) => task.settings.endpoint === DEMO.verifyEndpoint)).toBe(true);
    expect(api.filter((task) => task.settings.apiKey === DEMO.taskApiKey)).toHaveLength(5);
    expect(api.some((task) => task.settings.redirectUrl === DEMO.connectRedirectUrl)).toBe(true);
  });

  it('points the API tasks at verifyEndpoint and replaces the read-write key with apiKey', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 0, apiKey: 'my-own-key', verifyEndpoint: 'http://localhost:3000/v' });
    const api = store.quests
      .listByCommunity(DEMO.communityId)
      .flatMap((quest) => quest.tasks)
      .filter((task) => task.type === 'api');
    expect(api).toHaveLength(6);
    for (const task of api) {
      expect(task.settings.endpoint).toBe('http://localhost:3000/v');
      expect(task.settings.description).toBe('Checked by http://localhost:3000/v');
    }
    const keys = store.apiKeys.listByCommunity(DEMO.communityId);
    const seededKeys = seeded(0).apiKeys.listByCommunity(DEMO.communityId);
    expect(keys).toEqual(
      seededKeys.map((key) => (key.scope === 'read-write' ? { ...key, key: 'my-own-key' } : key)),
    );
  });

  it('refuses a bad number of users', () => {
    expect(() => seedDemo(createMemoryStore(), { users: -1 })).toThrow(TypeError);
    expect(() => seedDemo(createMemoryStore(), { users: 1.5 })).toThrow(TypeError);
  });
});

/** Mean µs per call of `lookup` over `count` members spread over the first `range`. */
function measure(range: number, count: number, lookup: (i: number) => boolean): number {
  for (let n = 0; n < count; n++) lookup((n * 7919) % range); // warm-up: measure optimized code
  let misses = 0;
  const started = performance.now();
  for (let n = 0; n < count; n++) if (!lookup((n * 7919) % range)) misses++;
  const micros = ((performance.now() - started) * 1000) / count;
  expect(misses).toBe(0);
  return micros;
}

function lookups(store: ReturnType<typeof seeded>, range: number) {
  const c = DEMO.communityId;
  const count = 20_000;
  return {
    byId: measure(
      range,
      count,
      (i) => store.users.get(generatedUserId(i))?.id === generatedUserId(i),
    ),
    byEmail: measure(range, count, (i) => {
      const j = i - (i % 3) + 1; // members whose index is a multiple of 3 have no email
      return (
        j >= range ||
        store.users.findIdByIdentifier(c, 'email', `MEMBER${j}@example.com`) === generatedUserId(j)
      );
    }),
    byDiscordId: measure(range, count, (i) => {
      const j = i - (i % 2);
      return (
        store.users.findIdByIdentifier(c, 'discordId', `9${j.toString().padStart(17, '0')}`) ===
        generatedUserId(j)
      );
    }),
  };
}

const format = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([name, micros]) => `${name} ${micros.toFixed(2)} µs`)
    .join(', ');

describe('100k members', () => {
  it('builds once and keeps lookups flat (latency measured and printed, not asserted)', async () => {
    const small = seeded(1_000);
    const started = performance.now();
    const store = seeded(100_000);
    const seedMs = performance.now() - started;
    expect(store.users.size).toBe(100_000 + Object.keys(DEMO.users).length + 2);
    const at1k = lookups(small, 1_000);
    const at100k = lookups(store, 100_000);

    // The same through the public API, in-process.
    const platform = createMockPlatform({ store, rateLimit: false });
    const requests = 300;
    let misses = 0;
    const t = performance.now();
    for (let n = 0; n < requests; n++) {
      const i = ((n * 7919) % 100_000) & ~1;
      const url = `http://mock.test/public/communities/demo/users?discordId=9${i.toString().padStart(17, '0')}`;
      const response = await platform.fetch(
        new Request(url, { headers: { 'x-api-key': DEMO.apiKeys.readOnly } }),
      );
      if (((await response.json()) as { id: string }).id !== generatedUserId(i)) misses++;
    }
    const apiUs = ((performance.now() - t) * 1000) / requests;
    expect(misses).toBe(0);
    console.info(
      `[mock-platform] seed of 100k members ${seedMs.toFixed(0)} ms\n` +
        `  store lookups at 1k members:   ${format(at1k)}\n` +
        `  store lookups at 100k members: ${format(at100k)}\n` +
        `  GET /users?discordId= at 100k members, in-process: ${apiUs.toFixed(0)} µs per request`,
    );
  }, 60_000);
});

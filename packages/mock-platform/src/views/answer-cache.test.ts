import { describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/demo.js';
import { DEMO } from '../seed/demo-ids.js';
import { createMemoryStore } from '../store/memory.js';
import { createTestPlatform } from '../testkit.js';
import { cachedJson } from './answer-cache.js';
import { MASKED_SECRET } from './webhooks.js';

// The hottest routes serve kept texts: a change must show at once, each caller its variant.

describe('cachedJson', () => {
  it('makes a text once per key while the store is not written, and anew after any write', () => {
    const store = createMemoryStore();
    let made = 0;
    const make = () => `text ${++made}`;
    expect(cachedJson(store, 'a', make)).toBe('text 1');
    expect(cachedJson(store, 'a', make)).toBe('text 1');
    expect(cachedJson(store, 'b', make)).toBe('text 2');
    // A read is not a write.
    store.users.get(DEMO.users.admin);
    [...store.quests.listByCommunity(DEMO.communityId)];
    expect(cachedJson(store, 'a', make)).toBe('text 1');
    store.claims.put(CLAIM);
    expect(cachedJson(store, 'a', make)).toBe('text 3');
    expect(cachedJson(createMemoryStore(), 'a', make)).toBe('text 4');
  });

  it('keeps nothing for a store without a version', () => {
    const { version: _, ...unversioned } = createMemoryStore();
    let made = 0;
    const make = () => `text ${++made}`;
    cachedJson(unversioned, 'a', make);
    expect(cachedJson(unversioned, 'a', make)).toBe('text 2');
  });
});

describe('the memory store’s version', () => {
  it('moves on every write method of every part, and on no read', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 10 });
    const snapshot = store.snapshot();
    const parts = {
      communities: () => store.communities.put(snapshot.communities[0]!),
      apiKeys: () => store.apiKeys.put(snapshot.apiKeys[0]!),
      apiKeysDelete: () => store.apiKeys.delete('unknown'),
      modules: () => store.modules.put(snapshot.modules[0]!),
      users: () => store.users.put(snapshot.users[0]!),
      invites: () => store.invites.put(snapshot.invites[0]!),
      quests: () => store.quests.put(snapshot.quests[0]!),
      questsUpdate: () => store.quests.update(snapshot.quests[0]!.id, { name: 'x' }),
      webhooks: () => store.webhooks.update(snapshot.webhooks[0]!.id, { name: 'x' }),
      webhooksCreate: () => store.webhooks.create({ ...snapshot.webhooks[0]!, id: 'w' }, 1),
      webhooksDelete: () => store.webhooks.delete(snapshot.webhooks[0]!.id),
      deliveries: () => store.deliveries.deleteByWebhook('unknown'),
      connections: () => store.connections.put(snapshot.connections[0]!),
      connectionsDelete: () => store.connections.deleteByUser('unknown'),
      claims: () => store.claims.put(CLAIM),
      xpEntries: () => store.xpEntries.put(snapshot.xpEntries![0]!),
      sprints: () => store.sprints.put(snapshot.sprints![0]!),
    };
    for (const [name, write] of Object.entries(parts)) {
      const before = store.version!;
      write();
      expect(store.version, name).toBeGreaterThan(before);
    }
    const before = store.version;
    store.communities.getBySubdomain('demo');
    store.users.findIdByIdentifier(DEMO.communityId, 'email', 'ada@example.com');
    store.users.countActive(DEMO.communityId);
    store.users.getRank(store.users.listRanked(DEMO.communityId)[0]!);
    store.xpEntries.listByCommunity(DEMO.communityId);
    store.sprints.listByCommunity(DEMO.communityId);
    void store.users.size;
    store.snapshot();
    expect(store.version).toBe(before);
  });
});

const CLAIM = {
  communityId: DEMO.communityId,
  userId: DEMO.users.admin,
  questId: DEMO.quests.verifyEmail,
  claims: 1,
  lastClaimedAt: null,
  lastFailedAt: null,
};

describe('the lists over the cache', () => {
  it('show a change at once, and secrets only to read-write callers, whoever asked first', async () => {
    const { call } = createTestPlatform();
    const list = async (key: string) =>
      (await call('GET', 'demo/webhooks?limit=100', { key })).body as {
        items: { id: string; name: string; secret: string }[];
      };
    const masked = await list(DEMO.apiKeys.readOnly);
    expect(masked.items.every((hook) => hook.secret === MASKED_SECRET)).toBe(true);
    const revealed = await list(DEMO.apiKeys.readWrite);
    expect(revealed.items.every((hook) => hook.secret.startsWith('whsec_'))).toBe(true);
    const id = DEMO.webhooks.joined;
    expect((await call('PATCH', `demo/webhooks/${id}`, { body: { name: 'Renamed' } })).status).toBe(
      200,
    );
    for (const key of [DEMO.apiKeys.readOnly, DEMO.apiKeys.readWrite]) {
      expect((await list(key)).items.find((hook) => hook.id === id)?.name).toBe('Renamed');
    }
  });

  it('show a quest created, deleted from the page by a new one, or a claim counted', async () => {
    const { call, clock } = createTestPlatform();
    const ids = async () =>
      ((await call('GET', 'demo/quests?limit=100')).body as { id: string }[]).map((q) => q.id);
    const before = await ids();
    const created = await call('POST', 'demo/quests', {
      body: {
        categoryId: DEMO.modules.community,
        name: 'New on the page',
        published: true,
        recurrence: 'daily',
        conditionOperator: 'AND',
      },
    });
    const after = await ids();
    expect(after).toEqual([...before, (created.body as { id: string }).id]);
    // The hourly claimCounter refresh makes new records: the page follows.
    clock.advance(3_600_000);
    expect(await ids()).toEqual(after);
  });

  it('show a quest created or a community renamed since the last page', async () => {
    const { call, platform } = createTestPlatform();
    const names = async () =>
      ((await call('GET', 'demo/quests?limit=100')).body as { communityName: string }[]).map(
        (quest) => quest.communityName,
      );
    const before = await names();
    const community = platform.store.communities.getBySubdomain('demo')!;
    platform.store.communities.put({ ...community, name: 'Renamed community' });
    const after = await names();
    expect(after).toHaveLength(before.length);
    expect(new Set(after)).toEqual(new Set(['Renamed community']));
  });

  it('show a member changed, an invite changed or added, and the new xp of an invitee', async () => {
    const { call, platform } = createTestPlatform();
    const { store } = platform;
    const admin = DEMO.users.admin;
    type Answer = { xp: number; invites: { userId: string; status: string; xp: number }[] };
    const byId = async () => (await call('GET', `demo/users/${admin}`)).body as Answer;
    const email = (store.users.get(admin)!.email ?? '').toUpperCase();
    const byEmail = async () =>
      (await call('GET', `demo/users?email=${encodeURIComponent(email)}`)).body as Answer;
    const both = async () => [await byId(), await byEmail()];
    for (const answer of await both()) expect(answer.invites.length).toBeGreaterThan(0);

    store.users.put({ ...store.users.get(admin)!, xp: 123_456 });
    for (const answer of await both()) expect(answer.xp).toBe(123_456);

    const [first] = store.invites.listByInviter(admin);
    store.invites.put({ ...first!, status: 'consumed' });
    for (const answer of await both()) {
      expect(answer.invites.find((invite) => invite.userId === first!.userId)?.status).toBe(
        'consumed',
      );
    }

    const invitee = store.users.get(first!.userId)!;
    store.users.put({ ...invitee, xp: 7_777 });
    for (const answer of await both()) {
      expect(answer.invites.find((invite) => invite.userId === invitee.id)?.xp).toBe(7_777);
    }

    const count = (await byId()).invites.length;
    const invited = new Set(store.invites.listByInviter(admin).map((invite) => invite.userId));
    const newcomer = Object.values(DEMO.users).find((id) => id !== admin && !invited.has(id))!;
    store.invites.put({ ...first!, userId: newcomer, status: 'active', questId: null });
    for (const answer of await both()) expect(answer.invites).toHaveLength(count + 1);
  });
});

import { describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/demo.js';
import { DEMO } from '../seed/demo-ids.js';
import { createMemoryStore } from './memory.js';
import type { UserRecord, WebhookRecord } from './records.js';
import { parseSnapshot } from './snapshot.js';

const COMMUNITY = DEMO.communityId;

function member(id: string, fields: Partial<UserRecord> = {}): UserRecord {
  return {
    id,
    communityId: COMMUNITY,
    avatar: null,
    name: null,
    email: null,
    connectedWallet: null,
    discordId: null,
    discordHandle: null,
    twitterId: null,
    twitterUsername: null,
    tiktokUsername: null,
    verifiedBlockchainAddresses: {},
    unVerifiedBlockchainAddresses: {},
    xp: 0,
    rank: 0,
    level: 1,
    karma: 0,
    flags: 0,
    stars: 0,
    role: 'guest',
    isBanned: false,
    banReason: null,
    referrerUrl: null,
    referrerId: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    deletedAt: null,
    restoredAt: null,
    ...fields,
  };
}

const A = '10000000-0000-4000-8000-0000000000a1';
const B = '10000000-0000-4000-8000-0000000000b2';

describe('user store', () => {
  it('finds a member by every identifier, case-insensitively where the platform is', () => {
    const store = createMemoryStore();
    store.users.put(
      member(A, {
        email: 'Ada@Example.com',
        connectedWallet: '0xAbC123',
        discordId: '42',
        discordHandle: 'Ada.L',
        twitterId: '77',
        twitterUsername: 'AdaBuilds',
        verifiedBlockchainAddresses: { polygon: '0xDEF456' },
        unVerifiedBlockchainAddresses: { solana: 'SoLaNaAddr' },
      }),
    );
    const find = store.users.findIdByIdentifier.bind(store.users, COMMUNITY);
    expect(find('email', 'ada@example.COM')).toBe(A);
    expect(find('ethAddress', '0xabc123')).toBe(A);
    expect(find('discordId', '42')).toBe(A);
    expect(find('discordHandle', 'ada.l')).toBe(A);
    expect(find('twitterId', '77')).toBe(A);
    expect(find('twitterUsername', '@adabuilds')).toBe(A);
    expect(find('blockchainAddress', '0xdef456')).toBe(A);
    expect(find('blockchainAddress', '0xdef456', 'polygon')).toBe(A);
    expect(find('blockchainAddress', '0xdef456', 'ethereum')).toBeUndefined();
    // Unverified addresses identify no one; ids are exact.
    expect(find('blockchainAddress', 'SoLaNaAddr')).toBeUndefined();
    expect(find('discordId', '042')).toBeUndefined();
    expect(
      store.users.findIdByIdentifier(DEMO.sandbox.communityId, 'email', 'ada@example.com'),
    ).toBeUndefined();
  });

  it('re-indexes on update and refuses an identifier held by another member', () => {
    const store = createMemoryStore();
    store.users.put(member(A, { email: 'a@example.com' }));
    store.users.put(member(A, { email: 'new@example.com' }));
    expect(store.users.findIdByIdentifier(COMMUNITY, 'email', 'a@example.com')).toBeUndefined();
    expect(store.users.findIdByIdentifier(COMMUNITY, 'email', 'new@example.com')).toBe(A);
    expect(() => store.users.put(member(B, { email: 'NEW@example.com' }))).toThrow(
      /\[@questkit\/mock-platform\].*email/,
    );
    expect(store.users.get(B)).toBeUndefined();
    // The same identifier in another community is another member's.
    store.users.put(member(B, { communityId: DEMO.sandbox.communityId, email: 'new@example.com' }));
    expect(store.users.size).toBe(2);
  });

  it('counts members that are not deleted', () => {
    const store = createMemoryStore();
    store.users.put(member(A));
    store.users.put(member(B, { deletedAt: '2025-02-01T00:00:00.000Z' }));
    expect(store.users.countActive(COMMUNITY)).toBe(1);
    store.users.put(member(B));
    expect(store.users.countActive(COMMUNITY)).toBe(2);
  });
});

function webhook(id: string, uri: string, createdAt: string): WebhookRecord {
  return {
    id,
    communityId: COMMUNITY,
    name: id,
    uri,
    active: true,
    secret: 's',
    events: [],
    success: 0,
    failed: 0,
    exhausted: 0,
    createdAt,
    updatedAt: createdAt,
  };
}

describe('webhook store', () => {
  const W1 = '30000000-0000-4000-8000-0000000000a1';
  const W2 = '30000000-0000-4000-8000-0000000000a2';
  const W3 = '30000000-0000-4000-8000-0000000000a3';

  it('keeps list order (createdAt, then id) whatever the insertion order', () => {
    const store = createMemoryStore();
    store.webhooks.create(webhook(W3, 'http://x/3', '2025-01-02T00:00:00.000Z'), 10);
    store.webhooks.create(webhook(W2, 'http://x/2', '2025-01-01T00:00:00.000Z'), 10);
    store.webhooks.create(webhook(W1, 'http://x/1', '2025-01-01T00:00:00.000Z'), 10);
    expect(store.webhooks.listByCommunity(COMMUNITY).map((w) => w.id)).toEqual([W1, W2, W3]);
  });

  it('refuses a uri already used (as a normalized URL) and the webhook past the maximum', () => {
    const store = createMemoryStore();
    expect(
      store.webhooks.create(webhook(W1, 'http://Example.com', '2025-01-01T00:00:00.000Z'), 2).ok,
    ).toBe(true);
    expect(
      store.webhooks.create(webhook(W2, 'http://example.com/', '2025-01-01T00:00:00.000Z'), 2),
    ).toEqual({
      ok: false,
      conflict: 'uri-taken',
    });
    expect(
      store.webhooks.create(webhook(W2, 'http://example.com/2', '2025-01-01T00:00:00.000Z'), 2).ok,
    ).toBe(true);
    expect(
      store.webhooks.create(webhook(W3, 'http://example.com/3', '2025-01-01T00:00:00.000Z'), 2),
    ).toEqual({
      ok: false,
      conflict: 'limit-reached',
    });
    expect(store.webhooks.update(W2, { uri: 'http://example.com' })).toEqual({
      ok: false,
      conflict: 'uri-taken',
    });
    expect(store.webhooks.update(W3, { name: 'x' })).toBeUndefined();
    // Freeing a uri makes it available again.
    expect(store.webhooks.update(W1, { uri: 'http://example.com/1' })?.ok).toBe(true);
    expect(store.webhooks.update(W2, { uri: 'http://example.com' })?.ok).toBe(true);
  });

  it('deletes a webhook with its delivery records', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 0 });
    expect(store.deliveries.listByWebhook(DEMO.webhooks.joined).length).toBeGreaterThan(0);
    expect(store.webhooks.delete(DEMO.webhooks.joined)).toBe(true);
    expect(store.webhooks.delete(DEMO.webhooks.joined)).toBe(false);
    expect(store.deliveries.listByWebhook(DEMO.webhooks.joined)).toEqual([]);
    expect(store.webhooks.listByCommunity(COMMUNITY).map((w) => w.id)).toEqual([
      DEMO.webhooks.claims,
    ]);
  });
});

describe('snapshot', () => {
  it('round-trips the whole state through JSON', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 30 });
    const json = JSON.parse(JSON.stringify(store.snapshot()));
    const copy = createMemoryStore(parseSnapshot(json));
    expect(copy.snapshot()).toEqual(store.snapshot());
    expect(copy.users.findIdByIdentifier(COMMUNITY, 'email', 'ada@example.com')).toBe(
      DEMO.users.admin,
    );
  });

  it('is a copy: changing it changes nothing in the store', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 0 });
    const snapshot = store.snapshot();
    snapshot.users[0]!.name = 'changed';
    expect(store.users.get(snapshot.users[0]!.id)?.name).not.toBe('changed');
  });

  it('refuses bad fixtures with the path of the bad field', () => {
    const store = createMemoryStore();
    seedDemo(store, { users: 0 });
    const json = JSON.parse(JSON.stringify(store.snapshot()));
    json.users[2].role = 'owner';
    expect(() => parseSnapshot(json)).toThrow(/users\.2\.role/);
    expect(() => parseSnapshot({ version: 2 })).toThrow(TypeError);
  });
});

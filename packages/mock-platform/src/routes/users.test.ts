import {
  InviteListSchema,
  ReviewCountsSchema,
  UserBySocialSchema,
  UserSchema,
} from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO, generatedUserId } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape } from '../testkit.js';

// The field sets of the contract's two user tables.
const BY_ID_FIELDS = [
  'id',
  'avatar',
  'connectedWallet',
  'name',
  'email',
  'discordId',
  'twitterId',
  'discordHandle',
  'tiktokUsername',
  'twitterUsername',
  'verifiedBlockchainAddresses',
  'unVerifiedBlockchainAddresses',
  'xp',
  'rank',
  'level',
  'invites',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'referrerUrl',
  'referrerId',
  'banReason',
  'role',
  'isBanned',
];
const BY_SOCIAL_FIELDS = [
  'id',
  'xp',
  'createdAt',
  'rank',
  'role',
  'level',
  'isBanned',
  'karma',
  'discordHandle',
  'tiktokUsername',
  'twitterUsername',
  'connectedWallet',
  'email',
  'discordId',
  'twitterId',
  'name',
  'referrerUrl',
  'referrerId',
  'banReason',
  'verifiedBlockchainAddresses',
  'unVerifiedBlockchainAddresses',
  'invites',
];

describe('GET /users/{userId}', () => {
  it('answers every named member with exactly the fields of the by-id table', async () => {
    const { call } = createTestPlatform();
    for (const id of Object.values(DEMO.users)) {
      const answer = await call('GET', `demo/users/${id}`, { key: DEMO.apiKeys.readOnly });
      expect(answer.status).toBe(200);
      expectShape(UserSchema, answer.body);
      expect(Object.keys(answer.body as object).sort()).toEqual([...BY_ID_FIELDS].sort());
    }
  });

  it('shows the variants: nulls, banned, deleted, invites with the invited xp', async () => {
    const { call } = createTestPlatform();
    const get = async (id: string) =>
      expectShape(UserSchema, (await call('GET', `demo/users/${id}`)).body);
    const guest = await get(DEMO.users.guest);
    expect(guest).toMatchObject({
      name: null,
      avatar: null,
      email: null,
      role: null,
      connectedWallet: null,
    });
    expect(await get(DEMO.users.banned)).toMatchObject({
      isBanned: true,
      role: 'banned',
      banReason: expect.any(String),
    });
    expect((await get(DEMO.users.deleted)).deletedAt).toEqual(expect.any(String));
    const admin = await get(DEMO.users.admin);
    expect(admin.invites?.find((i) => i.userId === DEMO.users.pendingInvitee)).toEqual({
      userId: DEMO.users.pendingInvitee,
      status: 'pending',
      joinedAt: '2025-01-04T00:00:00.000Z',
      xp: 20,
    });
    expect(admin.verifiedBlockchainAddresses).toHaveProperty('polygon');
    expect(admin.unVerifiedBlockchainAddresses).toHaveProperty('solana');
  });

  it('answers 400 for a user id that is not a uuid, 404 for an unknown or foreign member', async () => {
    const { call } = createTestPlatform();
    const bad = await call('GET', 'demo/users/not-a-uuid');
    expectError(bad, 400, 'userId');
    expect((bad.body as { issues: unknown[] }).issues).toEqual([
      { in: 'path', path: 'userId', message: expect.any(String) },
    ]);
    expectError(
      await call('GET', 'demo/users/10000000-0000-4000-8000-0000000000ff'),
      404,
      'not found',
    );
    expectError(await call('GET', `demo/users/${DEMO.sandbox.users.admin}`), 404);
  });
});

describe('GET /users (lookup by social or wallet identifier)', () => {
  const lookup = async (query: string) => {
    const { call } = createTestPlatform();
    return call('GET', `demo/users?${query}`, { key: DEMO.apiKeys.readOnly });
  };

  it.each([
    ['email=ada%40example.com', DEMO.users.admin],
    ['email=BEN%40EXAMPLE.COM', DEMO.users.editor],
    ['discordId=80351110224678912', DEMO.users.admin],
    ['discordHandle=Ada.Lovelace', DEMO.users.admin],
    ['twitterId=1426853018373939202', DEMO.users.reviewer],
    ['twitterUsername=%40Cleo_Reviews', DEMO.users.reviewer],
    ['ethAddress=0x52908400098527886e0f7030069857d2e4169ee7', DEMO.users.admin],
    ['blockchainAddress=0x8617E340B3D01FA5F11F306F4090FD50E238070D', DEMO.users.admin],
    [
      'blockchainAddress=0x1db3439a222c519ab44bb1144fc28167b4fa6ee6&blockchainNetwork=base',
      DEMO.users.walletOnly,
    ],
    ['email=member1%40example.com&discordId=', generatedUserId(1)],
    [
      'email=ada%40example.com&discordId=80351110224678912&twitterUsername=ada_builds',
      DEMO.users.admin,
    ],
  ])('finds %s', async (query, id) => {
    const answer = await lookup(query);
    expect(answer.status, answer.text).toBe(200);
    const user = expectShape(UserBySocialSchema, answer.body);
    expect(user.id).toBe(id);
    expect(Object.keys(answer.body as object).sort()).toEqual([...BY_SOCIAL_FIELDS].sort());
  });

  it('differs from the by-id shape: role never null, karma, no avatar/updatedAt/deletedAt', async () => {
    const { call } = createTestPlatform();
    const byId = (await call('GET', `demo/users/${DEMO.users.admin}`)).body as Record<
      string,
      unknown
    >;
    const bySocial = (await call('GET', 'demo/users?email=ada%40example.com')).body as Record<
      string,
      unknown
    >;
    expect(bySocial.karma).toBe(42);
    expect(byId).not.toHaveProperty('karma');
    for (const field of ['avatar', 'updatedAt', 'deletedAt']) {
      expect(byId).toHaveProperty(field);
      expect(bySocial).not.toHaveProperty(field);
    }
    // Generated member 13 has no role: null by id, guest by social identifier.
    expect((await call('GET', `demo/users/${generatedUserId(13)}`)).body).toMatchObject({
      role: null,
    });
    const social = await call('GET', 'demo/users?email=member13%40example.com');
    expect(social.body).toMatchObject({ id: generatedUserId(13), role: 'guest' });
  });

  it.each([
    ['email=ada%40example.com&discordId=80351110224678913', 'identifiers of two members'],
    ['email=nobody%40example.com', 'no member'],
    ['blockchainAddress=7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', 'an unverified address'],
    [
      'blockchainAddress=0x8617E340B3D01FA5F11F306F4090FD50E238070D&blockchainNetwork=ethereum',
      'the wrong network',
    ],
    ['discordId=80351110224678916', 'a deleted member'],
    ['email=sam%40example.com', 'a member of another community'],
  ])('answers 404 for %s (%s)', async (query) => {
    expectError(await lookup(query), 404, 'No member');
  });

  it('answers 400 without any identifier', async () => {
    expectError(await lookup(''), 400, 'at least one');
    expectError(await lookup('blockchainNetwork=ethereum'), 400, 'at least one');
    expectError(await lookup('email='), 400);
  });
});

describe('GET /users/{userId}/invites', () => {
  const INVITES = `demo/users/${DEMO.users.admin}/invites`;

  it('answers invites with the invited name and xp', async () => {
    const { call } = createTestPlatform();
    const invites = expectShape(
      InviteListSchema,
      (await call('GET', `${INVITES}?page=1&page_size=4`)).body,
    );
    expect(invites.map((i) => i.userId)).toEqual([
      DEMO.users.restored,
      DEMO.users.pendingInvitee,
      DEMO.users.consumedInvitee,
      DEMO.users.walletOnly,
    ]);
    expect(invites[0]).toEqual({
      userId: DEMO.users.restored,
      status: 'active',
      joinedAt: '2025-01-03T00:00:00.000Z',
      xp: 2200,
      name: 'gus',
    });
    for (const invite of invites)
      expect(Object.keys(invite).sort()).toEqual(['joinedAt', 'name', 'status', 'userId', 'xp']);
  });

  it('walks every page, each invite exactly once, page_size 10 by default', async () => {
    const { call, platform } = createTestPlatform();
    const expected = platform.store.invites.listByInviter(DEMO.users.admin).map((i) => i.userId);
    expect(expected.length).toBeGreaterThan(20);
    const seen: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const items = expectShape(
        InviteListSchema,
        (await call('GET', `${INVITES}?page=${page}`)).body,
      );
      expect(items.length).toBeLessThanOrEqual(10);
      if (items.length === 0) break;
      seen.push(...items.map((i) => i.userId));
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by status and by invitesQuestId', async () => {
    const { call } = createTestPlatform();
    for (const status of ['active', 'pending', 'consumed'] as const) {
      const items = expectShape(
        InviteListSchema,
        (await call('GET', `${INVITES}?page=1&page_size=100&status=${status}`)).body,
      );
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((i) => i.status === status)).toBe(true);
    }
    const forQuest = expectShape(
      InviteListSchema,
      (await call('GET', `${INVITES}?page=1&invitesQuestId=${DEMO.quests.verifyEmail}`)).body,
    );
    expect(forQuest.map((i) => i.userId)).toEqual([DEMO.users.walletOnly]);
    expectError(await call('GET', `${INVITES}?page=1&status=expired`), 400, 'status');
    expectError(await call('GET', `${INVITES}?page=1&invitesQuestId=42`), 400, 'invitesQuestId');
  });

  it('enforces page 1..1000 (required) and page_size 1..100 at their boundaries', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', INVITES), 400, 'page');
    expectError(await call('GET', `${INVITES}?page=0`), 400, 'page');
    expect((await call('GET', `${INVITES}?page=1`)).status).toBe(200);
    expect((await call('GET', `${INVITES}?page=1000`)).body).toEqual([]);
    expectError(await call('GET', `${INVITES}?page=1001`), 400, 'page');
    expectError(await call('GET', `${INVITES}?page=1.5`), 400, 'page');
    expectError(await call('GET', `${INVITES}?page=1&page_size=0`), 400, 'page_size');
    const full = await call('GET', `${INVITES}?page=1&page_size=100`);
    expect((full.body as unknown[]).length).toBeGreaterThan(10);
    expectError(await call('GET', `${INVITES}?page=1&page_size=101`), 400, 'page_size');
  });

  it('answers 404 for an unknown member and 400 for a bad id', async () => {
    const { call } = createTestPlatform();
    expectError(
      await call('GET', 'demo/users/10000000-0000-4000-8000-0000000000ff/invites?page=1'),
      404,
    );
    expectError(await call('GET', 'demo/users/nope/invites?page=1'), 400, 'userId');
  });
});

describe('GET /reviews/users/{id}', () => {
  it('answers the flags and stars of a member', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', `demo/reviews/users/${DEMO.users.admin}`);
    expect(expectShape(ReviewCountsSchema, answer.body)).toEqual({ flags: 1, stars: 17 });
  });

  it('answers 400, 401, 403, 404 where they apply', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', 'demo/reviews/users/nope'), 400, 'id');
    expectError(await call('GET', `demo/reviews/users/${DEMO.users.admin}`, { key: null }), 401);
    expectError(
      await call('GET', `demo/reviews/users/${DEMO.users.admin}`, { key: DEMO.sandbox.apiKey }),
      403,
    );
    expectError(await call('GET', 'demo/reviews/users/10000000-0000-4000-8000-0000000000ff'), 404);
  });
});

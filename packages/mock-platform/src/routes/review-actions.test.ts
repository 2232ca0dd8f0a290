import {
  REVIEW_BONUS_XP_MAX,
  REVIEW_COMMENT_MAX_LENGTH,
  ReviewActionResponseSchema,
  ReviewEventListSchema,
  ReviewListSchema,
  ReviewSchema,
  UserSchema,
} from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError, expectShape, type TestPlatform } from '../testkit.js';

const R = DEMO.reviews;
const REVIEW_FIELDS = ['createdAt', 'id', 'mark', 'quest', 'status', 'tasks', 'updatedAt', 'user'];

async function listAll(call: TestPlatform['call'], query = '') {
  return expectShape(ReviewListSchema, (await call('GET', `demo/reviews?limit=100${query}`)).body);
}

async function member(call: TestPlatform['call'], userId: string) {
  return expectShape(UserSchema, (await call('GET', `demo/users/${userId}`)).body);
}

async function counts(call: TestPlatform['call'], userId: string) {
  return (await call('GET', `demo/reviews/users/${userId}`)).body as {
    flags: number;
    stars: number;
  };
}

/** Claims a quest as a member through the control route (the service side). */
async function claim(call: TestPlatform['call'], questId: string, userId: string) {
  const answer = await call('POST', `/__mock/communities/demo/quests/${questId}/claims`, {
    key: null,
    body: { userId },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as {
    status: string;
    reason: string;
    reviewId: string | null;
    message: string;
  };
}

describe('GET /reviews', () => {
  it('lists the seeded reviews, one in each state, with exactly the documented fields', async () => {
    const { call } = createTestPlatform();
    const list = await listAll(call);
    expect(list.nextCursor).toBeNull();
    const byId = new Map(list.items.map((review) => [review.id, review]));
    expect(byId.get(R.pending)).toMatchObject({ status: 'pending', mark: null });
    expect(byId.get(R.starred)).toMatchObject({ status: 'success', mark: 'star' });
    expect(byId.get(R.flagged)).toMatchObject({ status: 'fail', mark: 'flag' });
    const body = (await call('GET', 'demo/reviews')).body as { items: object[] };
    for (const review of body.items) expect(Object.keys(review).sort()).toEqual(REVIEW_FIELDS);
    expect(byId.get(R.starred)).toMatchObject({
      user: { id: DEMO.users.editor, name: 'ben' },
      quest: { id: DEMO.quests.partnership, name: 'Visit our partner' },
      tasks: [{ type: 'partnership', status: 'success', value: expect.stringMatching(/^https:/) }],
    });
  });

  it('filters by questId, userId and status', async () => {
    const { call } = createTestPlatform();
    expect((await listAll(call, '&status=pending')).items.map((r) => r.id)).toEqual([R.pending]);
    expect((await listAll(call, `&userId=${DEMO.users.reviewer}`)).items.map((r) => r.id)).toEqual([
      R.flagged,
    ]);
    expect((await listAll(call, `&questId=${DEMO.quests.partnership}`)).items).toHaveLength(3);
    expect((await listAll(call, `&questId=${DEMO.quests.verifyEmail}`)).items).toEqual([]);
    expectError(await call('GET', 'demo/reviews?status=cancelled'), 400, 'status');
    expectError(await call('GET', 'demo/reviews?questId=partnership'), 400, 'questId');
  });

  it('walks every page with nextCursor, each review once, at every limit', async () => {
    const { call } = createTestPlatform();
    for (let n = 0; n < 4; n++) {
      const joined = await call('POST', '/__mock/communities/demo/members', {
        key: null,
        body: { name: `walker${n}` },
      });
      const userId = (joined.body as { user: { id: string } }).user.id;
      expect((await claim(call, DEMO.quests.partnership, userId)).status).toBe('pending');
    }
    const all = (await listAll(call)).items.map((review) => review.id);
    expect(all).toHaveLength(7);
    for (const limit of [1, 2, 3, 7]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const query: string = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const answer = expectShape(
          ReviewListSchema,
          (await call('GET', `demo/reviews?${query}`)).body,
        );
        seen.push(...answer.items.map((review) => review.id));
        cursor = answer.nextCursor;
        if (cursor === null) break;
      }
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('enforces limit 1..100 and refuses a cursor it did not hand out', async () => {
    const { call } = createTestPlatform();
    expectError(await call('GET', 'demo/reviews?limit=0'), 400, 'limit');
    expectError(await call('GET', 'demo/reviews?limit=101'), 400, 'limit');
    expect((await call('GET', 'demo/reviews?limit=100')).status).toBe(200);
    expectError(await call('GET', 'demo/reviews?cursor=nope'), 400, 'cursor');
    expect((await call('GET', 'demo/reviews?cursor=null')).status).toBe(200);
  });

  it('is for keys and admins: a member without the admin role gets 403', async () => {
    const { call, platform } = createTestPlatform();
    expect((await call('GET', 'demo/reviews', { key: DEMO.apiKeys.readOnly })).status).toBe(200);
    const token = await platform.issueToken(DEMO.users.editor);
    expectError(await call('GET', 'demo/reviews', { token }), 403, 'admin');
    const admin = await platform.issueToken(DEMO.users.admin);
    expect((await call('GET', 'demo/reviews', { token: admin })).status).toBe(200);
  });
});

describe('GET /reviews/{reviewId}', () => {
  it('answers one review, 404 for an unknown one or another community’s, 400 for a bad id', async () => {
    const { call } = createTestPlatform();
    const review = expectShape(ReviewSchema, (await call('GET', `demo/reviews/${R.flagged}`)).body);
    expect(review).toMatchObject({ id: R.flagged, status: 'fail', mark: 'flag' });
    expectError(await call('GET', `demo/reviews/${DEMO.quests.verifyEmail}`), 404, 'Review');
    expectError(
      await call('GET', `sandbox/reviews/${R.flagged}`, { key: DEMO.sandbox.apiKey }),
      404,
      'sandbox',
    );
    expectError(await call('GET', 'demo/reviews/first'), 400, 'reviewId');
  });
});

describe('POST /reviews: the documented rules', () => {
  const ids = [R.pending];
  const forbidden: [string, Record<string, unknown>, string][] = [
    [
      'a comment with pending',
      { status: 'pending', comment: 'hm' },
      'A comment is only allowed with status success or fail',
    ],
    [
      'a star with fail',
      { status: 'fail', mark: 'star' },
      'A star is only allowed with status success',
    ],
    [
      'a star with pending',
      { status: 'pending', mark: 'star' },
      'A star is only allowed with status success',
    ],
    [
      'a flag with success',
      { status: 'success', mark: 'flag' },
      'A flag is only allowed with status fail',
    ],
    [
      'a flag with pending',
      { status: 'pending', mark: 'flag' },
      'A flag is only allowed with status fail',
    ],
    [
      'bonusXP without a mark',
      { status: 'success', bonusXP: 10 },
      'bonusXP is only allowed with status success and mark star',
    ],
    [
      'bonusXP with fail and flag',
      { status: 'fail', mark: 'flag', bonusXP: 10 },
      'bonusXP is only allowed with status success and mark star',
    ],
    [
      'bonusXP with pending',
      { status: 'pending', bonusXP: 10 },
      'bonusXP is only allowed with status success and mark star',
    ],
    [
      'bonusXP with success and flag',
      { status: 'success', mark: 'flag', bonusXP: 10 },
      'A flag is only allowed with status fail',
    ],
    ['bonusXP of 0', { status: 'success', mark: 'star', bonusXP: 0 }, 'bonusXP'],
    [
      'bonusXP past the limit',
      { status: 'success', mark: 'star', bonusXP: REVIEW_BONUS_XP_MAX + 1 },
      'bonusXP',
    ],
    ['bonusXP not an integer', { status: 'success', mark: 'star', bonusXP: 1.5 }, 'bonusXP'],
    ['an unknown status', { status: 'approved' }, 'status'],
    ['an unknown mark', { status: 'success', mark: 'heart' }, 'mark'],
    ['an empty comment', { status: 'success', comment: '' }, 'comment'],
    [
      'a comment past the limit',
      { status: 'success', comment: 'x'.repeat(REVIEW_COMMENT_MAX_LENGTH + 1) },
      'comment',
    ],
    ['no status', {}, 'status'],
    ['a misspelt field', { status: 'success', bonusXp: 10 }, 'bonusXp (did you mean bonusXP?)'],
  ];
  it.each(
    forbidden,
  )('refuses %s with 400, a clear message, and changes nothing', async (_label, fields, words) => {
    const { call } = createTestPlatform();
    const before = await member(call, DEMO.users.walletOnly);
    const answer = await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: ids, ...fields },
    });
    expectError(answer, 400, words);
    expect((await call('GET', `demo/reviews/${R.pending}`)).body).toMatchObject({
      status: 'pending',
    });
    expect(await member(call, DEMO.users.walletOnly)).toEqual(before);
  });

  it('refuses an empty, repeated, oversized or malformed id list with 400', async () => {
    const { call } = createTestPlatform();
    const post = (claimedQuestIds: unknown) =>
      call('POST', 'demo/reviews', { body: { claimedQuestIds, status: 'success' } });
    expectError(await post([]), 400, 'claimedQuestIds');
    expectError(await post([R.pending, R.pending]), 400, 'Each claimed quest id may be given once');
    expectError(await post(Array.from({ length: 101 }, () => R.pending)), 400, 'claimedQuestIds');
    expectError(await post(['pending']), 400, 'claimedQuestIds.0');
    expectError(
      await call('POST', 'demo/reviews', { body: { status: 'success' } }),
      400,
      'claimedQuestIds',
    );
  });

  it('accepts each allowed combination', async () => {
    const allowed: Record<string, unknown>[] = [
      { status: 'success' },
      { status: 'success', comment: 'ok' },
      { status: 'success', mark: 'star' },
      { status: 'success', mark: 'star', bonusXP: 1, comment: 'great' },
      { status: 'fail' },
      { status: 'fail', comment: 'no' },
      { status: 'fail', mark: 'flag', comment: 'spam' },
    ];
    for (const fields of allowed) {
      const { call } = createTestPlatform();
      const answer = await call('POST', 'demo/reviews', {
        body: { claimedQuestIds: ids, ...fields },
      });
      expect(answer.status, JSON.stringify(fields)).toBe(200);
      expect(expectShape(ReviewActionResponseSchema, answer.body)).toEqual({
        reviewedClaimQuestIds: ids,
        status: fields.status,
        comment: fields.comment ?? null,
      });
    }
  });

  it('needs a read-write key or an admin: 403 for a read-only key and a plain member', async () => {
    const { call, platform } = createTestPlatform();
    const body = { claimedQuestIds: ids, status: 'success' };
    expectError(
      await call('POST', 'demo/reviews', { key: DEMO.apiKeys.readOnly, body }),
      403,
      'read-only',
    );
    const token = await platform.issueToken(DEMO.users.reviewer);
    expectError(await call('POST', 'demo/reviews', { token, body }), 403);
    const admin = await platform.issueToken(DEMO.users.admin);
    expect((await call('POST', 'demo/reviews', { token: admin, body })).status).toBe(200);
  });

  it('answers 404 for an unknown id and changes none of the others', async () => {
    const { call } = createTestPlatform();
    const unknown = '70000000-0000-4000-8000-0000000000ff';
    const answer = await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [R.pending, unknown], status: 'success' },
    });
    expectError(answer, 404, unknown);
    expect((await call('GET', `demo/reviews/${R.pending}`)).body).toMatchObject({
      status: 'pending',
    });
  });

  it('answers 409 for the same status again, success to fail directly, and a banned member', async () => {
    const { call, platform } = createTestPlatform();
    expectError(
      await call('POST', 'demo/reviews', {
        body: { claimedQuestIds: [R.starred], status: 'success' },
      }),
      409,
      'already success',
    );
    expectError(
      await call('POST', 'demo/reviews', {
        body: { claimedQuestIds: [R.starred], status: 'fail' },
      }),
      409,
      'set it to pending before fail',
    );
    expectError(
      await call('POST', 'demo/reviews', {
        body: { claimedQuestIds: [R.flagged], status: 'success' },
      }),
      409,
      'set it to pending before success',
    );
    // A review of a member banned since: it can no longer change.
    const jay = platform.store.users.get(DEMO.users.walletOnly)!;
    platform.store.users.put({ ...jay, isBanned: true, role: 'banned' });
    expectError(
      await call('POST', 'demo/reviews', {
        body: { claimedQuestIds: [R.pending], status: 'success' },
      }),
      409,
      'banned',
    );
  });
});

describe('POST /reviews: the effects', () => {
  it('success with a star and bonus xp grants the rewards, karma, the star; pending withdraws them all', async () => {
    const { call, platform, clock } = createTestPlatform();
    const jay = DEMO.users.walletOnly;
    const before = await member(call, jay);
    const karmaBefore = platform.store.users.get(jay)!.karma;
    const starsBefore = await counts(call, jay);
    const quest = platform.store.quests.get(DEMO.quests.partnership)!;
    clock.advance(60_000);
    const accepted = await call('POST', 'demo/reviews', {
      body: {
        claimedQuestIds: [R.pending],
        status: 'success',
        mark: 'star',
        bonusXP: 40,
        comment: 'Nice',
      },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const after = await member(call, jay);
    expect(after.xp).toBe(before.xp + 100 + 40);
    expect(after.level).toBeGreaterThanOrEqual(before.level);
    expect(platform.store.users.get(jay)!.karma).toBe(karmaBefore + 1);
    expect(await counts(call, jay)).toEqual({
      flags: starsBefore.flags,
      stars: starsBefore.stars + 1,
    });
    expect(platform.store.quests.get(quest.id)!.claimCount).toBe(quest.claimCount + 1);
    const review = expectShape(ReviewSchema, (await call('GET', `demo/reviews/${R.pending}`)).body);
    expect(review).toMatchObject({
      status: 'success',
      mark: 'star',
      tasks: [{ status: 'success' }],
      updatedAt: clock.now().toISOString(),
    });
    // Back to pending: everything the decision granted is withdrawn.
    const withdrawn = await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [R.pending], status: 'pending' },
    });
    expect(withdrawn.status).toBe(200);
    expect((await member(call, jay)).xp).toBe(before.xp);
    expect(await counts(call, jay)).toEqual(starsBefore);
    expect(platform.store.users.get(jay)!.karma).toBe(karmaBefore);
    expect(platform.store.quests.get(quest.id)!.claimCount).toBe(quest.claimCount);
    // Then fail with a flag: the flag count and karma move the other way.
    const karma = platform.store.users.get(jay)!.karma;
    await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [R.pending], status: 'fail', mark: 'flag', comment: 'Wrong link' },
    });
    expect(await counts(call, jay)).toEqual({
      flags: starsBefore.flags + 1,
      stars: starsBefore.stars,
    });
    expect(platform.store.users.get(jay)!.karma).toBe(karma - 1);
    expect((await member(call, jay)).xp).toBe(before.xp);

    const events = expectShape(
      ReviewEventListSchema,
      (await call('GET', `demo/reviews/${R.pending}/events`)).body,
    );
    expect(events.items.map((event) => [event.type, event.data])).toEqual([
      ['success', { message: 'Nice', bonusXP: 40 }],
      ['cancel', { message: 'The success decision was withdrawn: back to pending' }],
      ['error', { message: 'Wrong link' }],
    ]);
    expect(events.items[0]!.reviewer).toEqual({
      id: expect.any(String),
      name: 'demo read-write',
      avatar: null,
    });
  });

  it('names the admin of a member token as the reviewer', async () => {
    const { call, platform } = createTestPlatform();
    const token = await platform.issueToken(DEMO.users.admin);
    await call('POST', 'demo/reviews', {
      token,
      body: { claimedQuestIds: [R.pending], status: 'fail' },
    });
    const events = (await call('GET', `demo/reviews/${R.pending}/events`)).body as {
      items: { type: string; data: { message: string }; reviewer: { id: string; name: string } }[];
    };
    expect(events.items).toEqual([
      expect.objectContaining({
        type: 'error',
        data: { message: 'Refused' },
        reviewer: { id: DEMO.users.admin, name: 'ada', avatar: expect.any(String) },
      }),
    ]);
  });
});

describe('GET /reviews/{reviewId}/events', () => {
  it('lists the seeded history, 404 for an unknown review', async () => {
    const { call } = createTestPlatform();
    const events = expectShape(
      ReviewEventListSchema,
      (await call('GET', `demo/reviews/${R.starred}/events`)).body,
    );
    expect(events.items).toEqual([
      expect.objectContaining({
        type: 'success',
        data: { message: 'A great write-up of the visit', bonusXP: 50 },
      }),
    ]);
    expect((await call('GET', `demo/reviews/${R.pending}/events`)).body).toEqual({ items: [] });
    expectError(await call('GET', `demo/reviews/${DEMO.quests.draft}/events`), 404, 'Review');
  });
});

describe('claims of a quest that needs review', () => {
  it('open a pending review instead of granting, and a second claim waits for it', async () => {
    const { call, platform } = createTestPlatform();
    const ada = DEMO.users.admin;
    const xp = (await member(call, ada)).xp;
    const first = await claim(call, DEMO.quests.partnership, ada);
    expect(first).toMatchObject({
      status: 'pending',
      reason: 'in-review',
      reviewId: expect.any(String),
    });
    expect((await member(call, ada)).xp).toBe(xp);
    const review = expectShape(
      ReviewSchema,
      (await call('GET', `demo/reviews/${first.reviewId}`)).body,
    );
    expect(review).toMatchObject({
      status: 'pending',
      mark: null,
      user: { id: ada, name: 'ada' },
      quest: { id: DEMO.quests.partnership },
      tasks: [{ type: 'partnership', status: 'in-review' }],
    });
    const again = await claim(call, DEMO.quests.partnership, ada);
    expect(again).toMatchObject({ status: 'failed', reason: 'review-pending' });
    // The journal of claims shows it as in review; the demo webhooks are inactive: no delivery.
    const journal = (await call('GET', '/__mock/claims?outcome=in-review', { key: null })).body;
    expect(journal).toEqual([
      expect.objectContaining({ reviewId: first.reviewId, outcome: 'in-review' }),
    ]);
    expect([...platform.store.deliveries.list()].filter((d) => d.createdAt > '2025-06')).toEqual(
      [],
    );
    // Accepted: the quest's xp arrives, and the quest counts as claimed (recurrence once).
    await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [first.reviewId], status: 'success' },
    });
    expect((await member(call, ada)).xp).toBe(xp + 100);
    expect(await claim(call, DEMO.quests.partnership, ada)).toMatchObject({
      reason: 'already-claimed',
    });
    // Withdrawn, then refused: the claim no longer counts, and ada may claim the quest again.
    await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [first.reviewId], status: 'pending' },
    });
    await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [first.reviewId], status: 'fail' },
    });
    expect((await member(call, ada)).xp).toBe(xp);
    expect(await claim(call, DEMO.quests.partnership, ada)).toMatchObject({ status: 'pending' });
  });
});

describe('a ban', () => {
  it('cancels the member’s pending reviews with a cancel event, and leaves decided ones', async () => {
    const { call, platform } = createTestPlatform();
    const ada = DEMO.users.admin;
    const opened = await claim(call, DEMO.quests.partnership, ada);
    const banned = await call('POST', `demo/users/${ada}/ban`, { body: { reason: 'Spam' } });
    expect(banned.status, banned.text).toBe(200);
    const review = expectShape(
      ReviewSchema,
      (await call('GET', `demo/reviews/${opened.reviewId}`)).body,
    );
    expect(review).toMatchObject({ status: 'fail', mark: null, tasks: [{ status: 'error' }] });
    const events = expectShape(
      ReviewEventListSchema,
      (await call('GET', `demo/reviews/${opened.reviewId}/events`)).body,
    );
    expect(events.items).toEqual([
      expect.objectContaining({
        type: 'cancel',
        data: { message: 'Cancelled: the member was banned (Spam)' },
        reviewer: expect.objectContaining({ name: 'demo read-write' }),
      }),
    ]);
    // Nothing else changed: the other members' reviews keep their state.
    expect((await listAll(call, '&status=pending')).items.map((r) => r.id)).toEqual([R.pending]);
    expect(platform.store.reviews.events(R.starred)).toHaveLength(1);
  });
});

describe('the xp a review grants', () => {
  it('goes through the XP ledger: entries of the quest, counted by the leaderboard', async () => {
    const { call, platform } = createTestPlatform();
    const jay = DEMO.users.walletOnly;
    const entriesBefore = [...platform.store.xpEntries.list()].length;
    await call('POST', 'demo/reviews', {
      body: { claimedQuestIds: [R.pending], status: 'success', mark: 'star', bonusXP: 30 },
    });
    const entries = [...platform.store.xpEntries.list()].slice(entriesBefore);
    expect(entries.map((entry) => [entry.receiverId, entry.xp, entry.questId])).toEqual([
      [jay, 100, DEMO.quests.partnership],
      [jay, 30, DEMO.quests.partnership],
    ]);
    const user = expectShape(UserSchema, (await call('GET', `demo/users/${jay}`)).body);
    const board = (await call('GET', 'demo/leaderboard?page=1&limit=100')).body as {
      data: { userId: string; xp: number }[];
    };
    const row = board.data.findIndex((record) => record.userId === jay);
    expect(board.data[row]!.xp).toBe(user.xp);
    expect(row + 1).toBe(user.rank);
  });
});

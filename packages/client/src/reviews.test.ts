import {
  createManualClock,
  createMockPlatform,
  DEMO,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PlatformError } from './index.js';

// The review scenario of issue 35 through the typed client, over real HTTP on loopback: a member
// claims a quest that needs review, a reviewer accepts it with a star and bonus xp, and the xp,
// karma, counts and events follow; a ban cancels the pending reviews left.

let mock: MockServer;
const client = () =>
  createClient({ baseUrl: mock.url, subdomain: 'demo', apiKey: DEMO.apiKeys.readWrite });

beforeAll(async () => {
  mock = await startMockServer(
    createMockPlatform({ clock: createManualClock(), rateLimit: false, endpointChecks: false }),
    { port: 0 },
  );
});
afterAll(() => mock.close());

/** Claims a quest as a member through the mock's control route; the claim's answer. */
async function claim(questId: string, userId: string) {
  const response = await fetch(`${mock.url}/__mock/communities/demo/quests/${questId}/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; reviewId: string | null };
}

/** Adds a member through the mock's control route; their id. */
async function join(name: string): Promise<string> {
  const response = await fetch(`${mock.url}/__mock/communities/demo/members`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email: `${name}@example.com` }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

describe('reviewing a claimed quest through the client', () => {
  it('a star and bonus xp: the xp, karma, counts and events follow', async () => {
    const api = client();
    const member = await join('rita');
    const opened = await claim(DEMO.quests.partnership, member);
    expect(opened.status).toBe('pending');
    const reviewId = opened.reviewId!;
    const queue = await api.listReviews({ status: 'pending', questId: DEMO.quests.partnership });
    expect(queue.items.map((review) => review.id)).toContain(reviewId);
    const before = await api.getUser({ userId: member });
    // Karma shows in the lookup by social identifier.
    const karmaBefore = (await api.lookupUser({ email: 'rita@example.com' })).karma;
    const countsBefore = await api.getReviewCounts({ id: member });

    const answer = await api.reviewClaims({
      body: {
        claimedQuestIds: [reviewId],
        status: 'success',
        mark: 'star',
        bonusXP: 25,
        comment: 'Lovely visit',
      },
    });
    expect(answer).toEqual({
      reviewedClaimQuestIds: [reviewId],
      status: 'success',
      comment: 'Lovely visit',
    });

    const after = await api.getUser({ userId: member });
    expect(after.xp).toBe(before.xp + 100 + 25);
    expect(after.rank).toBeLessThanOrEqual(before.rank);
    expect((await api.lookupUser({ email: 'rita@example.com' })).karma).toBe(karmaBefore + 1);
    expect(await api.getReviewCounts({ id: member })).toEqual({
      flags: countsBefore.flags,
      stars: countsBefore.stars + 1,
    });
    const review = await api.getReview({ reviewId });
    expect(review).toMatchObject({
      status: 'success',
      mark: 'star',
      user: { id: member, name: 'rita' },
    });
    const events = await api.listReviewEvents({ reviewId });
    expect(events.items).toEqual([
      expect.objectContaining({
        type: 'success',
        data: { message: 'Lovely visit', bonusXP: 25 },
        reviewer: expect.objectContaining({ name: 'demo read-write' }),
      }),
    ]);
    // The leaderboard counts the review's xp: the member sits at their rank with it.
    const page = await api.getLeaderboard({ page: Math.ceil(after.rank / 10), limit: 10 });
    expect(page.data[(after.rank - 1) % 10]).toMatchObject({ userId: member, xp: after.xp });

    // A rule broken is the platform's 400, with its message.
    await expect(
      api.reviewClaims({ body: { claimedQuestIds: [reviewId], status: 'pending', comment: 'x' } }),
    ).rejects.toThrow(PlatformError);
  });

  it('a ban cancels the member’s pending reviews, each with a cancel event', async () => {
    const api = client();
    const member = await join('sam');
    const first = await claim(DEMO.quests.partnership, member);
    expect(first.status).toBe('pending');
    await api.banUser({ userId: member, body: { reason: 'Spam in submissions' } });
    const review = await api.getReview({ reviewId: first.reviewId! });
    expect(review.status).toBe('fail');
    const events = await api.listReviewEvents({ reviewId: first.reviewId! });
    expect(events.items.map((event) => [event.type, event.data.message])).toEqual([
      ['cancel', 'Cancelled: the member was banned (Spam in submissions)'],
    ]);
    const pending = await api.listReviews({ status: 'pending', userId: member });
    expect(pending).toEqual({ items: [], nextCursor: null });
  });

  it('paginate walks the review list by nextCursor, each review once', async () => {
    const api = client();
    for (let n = 0; n < 5; n++) await claim(DEMO.quests.partnership, await join(`page${n}`));
    const all = (await api.listReviews({ limit: 100 })).items.map((review) => review.id);
    expect(all.length).toBeGreaterThanOrEqual(8);
    const walked: string[] = [];
    for await (const review of api.paginate('listReviews', { limit: 3 })) walked.push(review.id);
    expect(walked).toEqual(all);
    const pending: string[] = [];
    for await (const review of api.paginate('listReviews', { limit: 2, status: 'pending' }))
      pending.push(review.id);
    expect(pending.length).toBeGreaterThanOrEqual(6);
    expect(pending).toEqual(all.filter((id) => pending.includes(id)));
  });
});

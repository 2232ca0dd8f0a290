import { API_OPERATIONS, OPERATION_IDS, type OperationId } from '@questkit/core/api';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import { createTestPlatform, expectError } from '../testkit.js';
import { PUBLIC_ROUTES } from './index.js';

// One valid request per route, so the statuses every route shares (401, 404 community, 429) are
// checked on each of them, not on a sample.
const SAMPLES: Record<string, { path: string; body?: unknown }> = {
  getCommunity: { path: '' },
  listModules: { path: '/modules' },
  getUser: { path: `/users/${DEMO.users.admin}` },
  lookupUser: { path: '/users?email=ada%40example.com' },
  listInvites: { path: `/users/${DEMO.users.admin}/invites?page=1` },
  getReviewCounts: { path: `/reviews/users/${DEMO.users.admin}` },
  deleteConnectAssociation: { path: `/users/${DEMO.users.admin}/connect` },
  listQuests: { path: '/quests' },
  createQuest: {
    path: '/quests',
    body: {
      categoryId: DEMO.modules.onboarding,
      name: 'q',
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
    },
  },
  updateQuest: { path: `/quests/${DEMO.quests.joinDiscord}`, body: { name: 'Join us' } },
  checkMember: { path: '/member', body: { userId: DEMO.users.admin } },
  createSecret: { path: '/secrets' },
  getSecret: { path: '/secrets' },
  addXp: { path: `/users/${DEMO.users.editor}/xp`, body: { xp: 10, label: 'Thanks' } },
  removeXp: { path: `/users/${DEMO.users.admin}/xp`, body: { xp: 1, label: 'Oops' } },
  banUser: { path: `/users/${DEMO.users.guest}/ban`, body: { reason: 'spam' } },
  getReferralCode: { path: `/users/${DEMO.users.admin}/referral-code` },
  getLeaderboard: { path: '/leaderboard?page=1&limit=10' },
  listSprints: { path: '/leaderboard/sprint' },
  listWebhooks: { path: '/webhooks' },
  createWebhook: {
    path: '/webhooks',
    body: { name: 'w', uri: 'http://127.0.0.1:9/w', active: true },
  },
  updateWebhook: { path: `/webhooks/${DEMO.webhooks.claims}`, body: { active: true } },
  deleteWebhook: { path: `/webhooks/${DEMO.webhooks.claims}` },
  listWebhookEventTypes: { path: '/webhooks-event-types' },
  listWebhookDeliveries: { path: `/webhooks/${DEMO.webhooks.joined}/events` },
  listReviews: { path: '/reviews?status=pending' },
  getReview: { path: `/reviews/${DEMO.reviews.pending}` },
  reviewClaims: {
    path: '/reviews',
    body: { claimedQuestIds: [DEMO.reviews.pending], status: 'success', mark: 'star' },
  },
  listReviewEvents: { path: `/reviews/${DEMO.reviews.starred}/events` },
};

/** The operations the platform's documentation adds to the contract (docs notes §2). */
const DOCUMENTED = new Set([
  'checkMember',
  'createSecret',
  'getSecret',
  'addXp',
  'removeXp',
  'banUser',
  'getReferralCode',
  'getLeaderboard',
  'listSprints',
  'updateQuest',
]);

const cases = PUBLIC_ROUTES.map((route) => {
  const sample = SAMPLES[route.operationId];
  if (!sample) throw new Error(`no sample request for ${route.operationId}`);
  return [route.operationId, route, sample] as const;
});

describe.each(cases)('%s', (_name, route, sample) => {
  const method = route.method.toUpperCase();

  it('succeeds with the demo read-write key', async () => {
    const { call } = createTestPlatform();
    const answer = await call(method, `demo${sample.path}`, { body: sample.body });
    expect(answer.status, answer.text).toBe(route.status ?? 200);
  });

  it('answers 401 without a credential', async () => {
    const { call } = createTestPlatform();
    expectError(await call(method, `demo${sample.path}`, { key: null, body: sample.body }), 401);
  });

  it('answers 404 for an unknown community', async () => {
    const { call } = createTestPlatform();
    expectError(await call(method, `nowhere${sample.path}`, { body: sample.body }), 404, 'nowhere');
  });

  it('answers 403 to another community’s key, except the community lookup', async () => {
    const { call } = createTestPlatform();
    const answer = await call(method, `demo${sample.path}`, {
      key: DEMO.sandbox.apiKey,
      body: sample.body,
    });
    if (route.access === 'any') expect(answer.status).toBe(route.status ?? 200);
    else expectError(answer, 403);
  });

  it('answers 429 with Retry-After once the key’s bucket is empty', async () => {
    const { call } = createTestPlatform({ rateLimit: { perSecond: 1 } });
    await call('GET', 'demo/modules');
    const answer = await call(method, `demo${sample.path}`, { body: sample.body });
    expectError(answer, 429);
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('declares the statuses it can answer', () => {
    const expected = [401, 404, 429];
    if (route.access !== 'any') expected.push(403);
    for (const status of expected) expect(route.errors).toContain(status);
    // The contract declares 400, 401, 403, 404, 409, 429, 500 on community lookup, modules and
    // every webhook route, the platform's documentation on the routes it adds (docs notes §2,
    // the reviews included); the others declare what the mock can answer.
    const contractRoute =
      route.tag === 'Webhooks' ||
      route.tag === 'Community' ||
      route.tag === 'Reviews' ||
      DOCUMENTED.has(route.operationId);
    expect([...route.errors].sort()).toEqual(
      contractRoute ? [400, 401, 403, 404, 409, 429, 500] : [400, 401, 403, 404, 429],
    );
  });
});

describe('the route table', () => {
  it('is core’s contract with a handler: one route per operation, every field from core', () => {
    expect(PUBLIC_ROUTES.map((route) => route.operationId)).toEqual(OPERATION_IDS);
    for (const route of PUBLIC_ROUTES) {
      const { handle, ...contract } = route;
      expect(handle).toBeTypeOf('function');
      expect(contract).toStrictEqual(API_OPERATIONS[route.operationId as OperationId]);
    }
  });
});

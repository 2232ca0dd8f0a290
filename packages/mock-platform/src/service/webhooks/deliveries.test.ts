import {
  KnownWebhookEventSchema,
  type QuestEventData,
  type SprintEventData,
  type UserBannedData,
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDeliveryRecord,
} from '@questkit/core/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockPlatform } from '../../platform.js';
import { DEMO } from '../../seed/demo-ids.js';
import { createPrng } from '../../seed/prng.js';
import {
  apiQuest,
  createQuest,
  createServicePlatform,
  message,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../../service.testkit.js';
import type { ClaimResult } from '../claim-result.js';
import type { OutboundOptions } from '../outbound/outbound.js';
import { countDeliveries, type DeliveryAttempt } from './deliveries.js';

let receiver: TestServer;
let nextReply: (index: number) => Reply;
let mock: ServicePlatform;
const platforms: ServicePlatform[] = [];

/** A short schedule for the engine's own tests; the documented one is tested below. */
const SHORT_RETRIES_MS = [1_000, 2_000, 4_000];

async function setUp(
  retryDelaysMs: readonly number[] = SHORT_RETRIES_MS,
  timeoutMs = 800,
  outbound: OutboundOptions = {},
) {
  mock = createServicePlatform({
    endpointChecks: false,
    webhooks: { retryDelaysMs, timeoutMs },
    outbound,
  });
  platforms.push(mock);
  // The seeded webhooks point at a port of the examples: remove them.
  for (const id of Object.values(DEMO.webhooks)) {
    expect((await mock.call('DELETE', `/public/communities/demo/webhooks/${id}`)).status).toBe(200);
  }
}

async function addWebhook(events: string[], fields: Record<string, unknown> = {}) {
  const created = await mock.call<{ id: string }>('POST', '/public/communities/demo/webhooks', {
    name: 'test receiver',
    uri: `${receiver.url}/hooks/${Math.random().toString(36).slice(2)}`,
    active: true,
    events,
    ...fields,
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

async function webhook(id: string): Promise<Webhook> {
  const list = await mock.call<{ items: Webhook[] }>(
    'GET',
    '/public/communities/demo/webhooks?limit=100',
  );
  return list.body.items.find((item) => item.id === id)!;
}

async function records(webhookId: string, query = ''): Promise<WebhookDeliveryRecord[]> {
  const all: WebhookDeliveryRecord[] = [];
  for (let page = 0; page <= 1000; page++) {
    const answer = await mock.call<{ items: WebhookDeliveryRecord[] }>(
      'GET',
      `/public/communities/demo/webhooks/${webhookId}/events?limit=100&page=${page}${query}`,
    );
    expect(answer.status).toBe(200);
    all.push(...answer.body.items);
    if (answer.body.items.length < 100) break;
  }
  return all;
}

/** The invariant: the webhook's counters are its records counted by status. */
async function expectCountersAgree(webhookId: string) {
  const counters = await webhook(webhookId);
  const listed = await records(webhookId);
  const count = (status: string) => listed.filter((record) => record.status === status).length;
  expect({
    success: counters.success,
    failed: counters.failed,
    exhausted: counters.exhausted,
  }).toEqual({
    success: count('success'),
    failed: count('failed'),
    exhausted: count('exhausted'),
  });
  expect(countDeliveries(mock.platform.store, webhookId)).toEqual({
    success: counters.success,
    failed: counters.failed,
    exhausted: counters.exhausted,
  });
  return counters;
}

const join = (fields: Record<string, unknown>) =>
  mock.call<{ user: { id: string }; deliveries: WebhookDeliveryRecord[] }>(
    'POST',
    '/__mock/communities/demo/members',
    fields,
  );

const advance = (ms: number) =>
  mock.call<{ now: string; ran: number; pending: number }>('POST', '/__mock/clock/advance', { ms });

beforeEach(async () => {
  nextReply = () => ({ status: 200 });
  receiver = await startServer((_request, index) => nextReply(index));
});

afterEach(async () => {
  for (const platform of platforms.splice(0)) {
    platform.platform.service.stop();
    expect(platform.errors).toEqual([]);
  }
  await receiver.close();
});

describe('members joining', () => {
  it('fire JOINED_COMMUNITY: one POST with the event and the webhook secret', async () => {
    await setUp();
    const subscribed = await addWebhook(['JOINED_COMMUNITY']);
    await addWebhook(['QUEST_CLAIMED']);
    await addWebhook(['JOINED_COMMUNITY'], { active: false });

    const joined = await join({
      name: 'kim',
      email: 'kim@example.com',
      discordId: '42',
      discordHandle: 'kim',
    });
    expect(joined.status).toBe(200);
    const userId = joined.body.user.id;
    expect(joined.body.deliveries).toEqual([
      expect.objectContaining({
        webhookId: subscribed,
        status: 'success',
        tries: 1,
        eventType: 'JOINED_COMMUNITY',
      }),
    ]);

    expect(receiver.received).toHaveLength(1);
    const sent = receiver.received[0]!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['user-agent']).toBe('Svc-Webhook');
    const secret = (await webhook(subscribed)).secret;
    expect(sent.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'JOINED_COMMUNITY',
      time: Date.parse('2025-06-01T12:00:00.000Z'),
      data: {
        community: {
          id: DEMO.communityId,
          name: expect.any(String),
          subdomain: 'demo',
          blockchain: expect.anything(),
          discord: null,
          twitter: null,
          website: null,
        },
        user: {
          id: userId,
          name: 'kim',
          twitter: null,
          discord: { id: '42', handle: 'kim' },
          email: 'kim@example.com',
          addresses: {},
        },
      },
      secret,
    });
    expect(KnownWebhookEventSchema.safeParse(sent.json).success).toBe(true);
    const counters = await expectCountersAgree(subscribed);
    expect(counters.success).toBe(1);

    const found = await mock.call<{ id: string }>(
      'GET',
      '/public/communities/demo/users?email=kim%40example.com',
    );
    expect(found.body.id).toBe(userId);
  });

  it('record the invite of a referrer and refuse taken identifiers and unknown fields', async () => {
    await setUp();
    const joined = await join({ name: 'lea', xp: 500, referrerId: DEMO.users.admin });
    expect(joined.status).toBe(200);
    const invites = await mock.call<Array<{ userId: string; status: string }>>(
      'GET',
      `/public/communities/demo/users/${DEMO.users.admin}/invites?page=1&page_size=100`,
    );
    expect(invites.body).toContainEqual(
      expect.objectContaining({ userId: joined.body.user.id, status: 'active' }),
    );

    expect((await join({ email: 'ada@example.com' })).status).toBe(409);
    expect((await join({ id: DEMO.users.admin })).status).toBe(409);
    expect((await join({ nmae: 'typo' })).status).toBe(400);
    expect((await join({ referrerId: DEMO.sandbox.users.admin })).status).toBe(400);
    expect((await mock.call('POST', '/__mock/communities/nope/members', {})).status).toBe(404);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('retries on the test clock', () => {
  it('follow the schedule until the receiver answers 200', async () => {
    await setUp();
    nextReply = (index) =>
      index === 0 ? message(500, 'down') : index === 1 ? { hang: true } : { status: 200 };
    const hook = await addWebhook(['JOINED_COMMUNITY']);
    const joined = await join({ name: 'max' });
    const [first] = joined.body.deliveries;
    expect(first).toMatchObject({
      status: 'failed',
      tries: 1,
      retryAt: '2025-06-01T12:00:01.000Z',
    });
    expect(await expectCountersAgree(hook)).toMatchObject({ success: 0, failed: 1, exhausted: 0 });

    expect((await advance(999)).body).toMatchObject({ ran: 0, pending: 1 });
    expect(receiver.received).toHaveLength(1);
    expect((await advance(1)).body).toMatchObject({
      ran: 1,
      pending: 1,
      now: '2025-06-01T12:00:01.000Z',
    });
    const second = (await records(hook))[0]!;
    // The second try timed out; the next is 2 s after it.
    expect(second).toMatchObject({
      status: 'failed',
      tries: 2,
      retryAt: '2025-06-01T12:00:03.000Z',
    });

    expect((await advance(60_000)).body).toMatchObject({
      ran: 1,
      pending: 0,
      now: '2025-06-01T12:01:01.000Z',
    });
    const done = (await records(hook))[0]!;
    expect(done).toMatchObject({
      status: 'success',
      tries: 3,
      updatedAt: '2025-06-01T12:00:03.000Z',
    });
    expect(receiver.received).toHaveLength(3);
    expect(await expectCountersAgree(hook)).toMatchObject({ success: 1, failed: 0, exhausted: 0 });

    const detail = await mock.call<{
      attempts: DeliveryAttempt[];
      payload: unknown;
      retryScheduled: boolean;
    }>('GET', `/__mock/webhooks/deliveries/${done.id}`);
    expect(detail.body.attempts.map((a) => [a.try, a.status, a.ok])).toEqual([
      [1, 500, false],
      [2, null, false],
      [3, 200, true],
    ]);
    expect(detail.body.attempts[1]!.error).toContain('800 ms');
    // The receiver's answer, so a deduplicating receiver's "Already handled." can be read.
    expect(detail.body.attempts.map((a) => a.body)).toEqual(['{"message":"down"}', null, '']);
    expect(detail.body.retryScheduled).toBe(false);
    expect(detail.text).not.toContain((await webhook(hook)).secret);
  });

  it('end as exhausted after the last try, then can be replayed', async () => {
    await setUp();
    nextReply = () => message(503, 'still down');
    const hook = await addWebhook(['JOINED_COMMUNITY']);
    await join({ name: 'nia' });
    const report = await advance(24 * 3_600_000);
    expect(report.body).toMatchObject({ ran: 3, pending: 0 });
    expect(receiver.received).toHaveLength(4);
    const [exhausted] = await records(hook, '&statusFilter=exhausted');
    // Tries at 0, +1 s, +2 s, +4 s; retryAt of a finished delivery is its last try.
    expect(exhausted).toMatchObject({
      status: 'exhausted',
      tries: 4,
      retryAt: '2025-06-01T12:00:07.000Z',
    });
    expect(await expectCountersAgree(hook)).toMatchObject({ success: 0, failed: 0, exhausted: 1 });
    expect(
      (await mock.call<{ pendingRetries: number }>('GET', '/__mock/clock')).body,
    ).toMatchObject({
      mode: 'manual',
      pendingRetries: 0,
    });

    nextReply = () => ({ status: 200 });
    const replayed = await mock.call<{
      event: { id: string };
      deliveries: WebhookDeliveryRecord[];
    }>('POST', `/__mock/webhooks/deliveries/${exhausted!.id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.deliveries).toEqual([
      expect.objectContaining({ status: 'success', tries: 1, eventType: 'JOINED_COMMUNITY' }),
    ]);
    expect(replayed.body.deliveries[0]!.id).not.toBe(exhausted!.id);
    const events = receiver.received.map((r) => (r.json as { id: string }).id);
    expect(new Set(events).size).toBe(1);
    expect(await expectCountersAgree(hook)).toMatchObject({ success: 1, failed: 0, exhausted: 1 });
    expect((await mock.call('POST', '/__mock/clock/advance', { ms: -1 })).status).toBe(400);
    expect((await mock.call('POST', '/__mock/clock/advance', {})).status).toBe(400);
    expect((await mock.call('POST', '/__mock/webhooks/deliveries/nope/replay')).status).toBe(404);
    expect((await mock.call('GET', '/__mock/webhooks/deliveries/nope')).status).toBe(404);
  });

  it('stop for a webhook deleted while a retry waits', async () => {
    await setUp();
    nextReply = () => message(500, 'down');
    const hook = await addWebhook(['JOINED_COMMUNITY']);
    await join({ name: 'oli' });
    expect((await mock.call('DELETE', `/public/communities/demo/webhooks/${hook}`)).status).toBe(
      200,
    );
    await advance(3_600_000);
    expect(receiver.received).toHaveLength(1);
    expect(countDeliveries(mock.platform.store, hook)).toEqual({
      success: 0,
      failed: 0,
      exhausted: 0,
    });
  });
});

describe('claims and fired events', () => {
  it('deliver QUEST_CLAIMED on submission, then QUEST_SUCCEEDED or QUEST_FAILED, nested', async () => {
    await setUp();
    const endpoint = await startServer((_r, index) =>
      index === 0 ? message(200, 'ok') : message(400, 'not yet'),
    );
    try {
      const hook = await addWebhook(['QUEST_CLAIMED', 'QUEST_SUCCEEDED', 'QUEST_FAILED']);
      const { id: questId, taskIds } = await createQuest(
        mock,
        apiQuest({ endpoint: `${endpoint.url}/verify` }),
      );
      const claim = (userId: string) =>
        mock.call<ClaimResult>('POST', `/__mock/communities/demo/quests/${questId}/claims`, {
          userId,
        });
      const won = await claim(DEMO.users.admin);
      const lost = await claim(DEMO.users.editor);
      expect(won.body.deliveries.map((d) => [d.eventType, d.status])).toEqual([
        ['QUEST_CLAIMED', 'success'],
        ['QUEST_SUCCEEDED', 'success'],
      ]);
      expect(lost.body.deliveries.map((d) => d.eventType)).toEqual([
        'QUEST_CLAIMED',
        'QUEST_FAILED',
      ]);
      const sent = receiver.received.map((r) => r.json as { type: string; data: QuestEventData });
      expect(sent.map((event) => event.type).sort()).toEqual([
        'QUEST_CLAIMED',
        'QUEST_CLAIMED',
        'QUEST_FAILED',
        'QUEST_SUCCEEDED',
      ]);
      const succeeded = sent.find((event) => event.type === 'QUEST_SUCCEEDED')!;
      expect(succeeded.data.user).toMatchObject({ id: DEMO.users.admin });
      expect(succeeded.data.user.twitter).not.toBeNull();
      expect(succeeded.data.quest).toEqual({
        id: questId,
        name: 'Service test quest',
        categoryId: DEMO.modules.onboarding,
        categoryName: expect.any(String),
        xp: 100,
        published: true,
        autoValidate: true,
        tasks: [{ id: taskIds[0], type: 'api' }],
        lastReviewerId: null,
      });
      expect(succeeded.data.taskInputs).toEqual([
        { taskId: taskIds[0], taskType: 'api', input: {} },
      ]);
      expect(sent.find((event) => event.type === 'QUEST_FAILED')!.data.user.id).toBe(
        DEMO.users.editor,
      );
      for (const { json } of receiver.received) {
        expect(KnownWebhookEventSchema.safeParse(json).success).toBe(true);
      }
      // A claim the rules refuse before any call (claimed today already) was never submitted.
      const again = await claim(DEMO.users.admin);
      expect(again.body).toMatchObject({ status: 'failed', deliveries: [] });
      await expectCountersAgree(hook);
    } finally {
      await endpoint.close();
    }
  });

  it('fires any listed event type through the events route, realistic by default', async () => {
    await setUp();
    await addWebhook(['QUEST_CLAIMED', 'USER_BANNED']);
    const fired = await mock.call<{ event: { type: string; data: unknown } }>(
      'POST',
      '/__mock/communities/demo/events',
      { type: 'QUEST_CLAIMED', data: { hand: 'made' } },
    );
    expect(fired.status).toBe(200);
    expect(receiver.received[0]!.json).toMatchObject({
      type: 'QUEST_CLAIMED',
      data: { hand: 'made' },
    });
    await mock.call('POST', '/__mock/communities/demo/events', { type: 'USER_BANNED' });
    const banned = receiver.received[1]!.json as { data: UserBannedData };
    expect(KnownWebhookEventSchema.safeParse(banned).success).toBe(true);
    expect(banned.data.community.id).toBe(DEMO.communityId);
    expect(
      (await mock.call('POST', '/__mock/communities/demo/events', { type: 'NOPE' })).status,
    ).toBe(400);
    const types = await mock.call('GET', '/public/communities/demo/webhooks-event-types');
    expect(types.body).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});

describe('events of reviews, bans, members leaving and sprints', () => {
  const sentOf = (type: string) =>
    receiver.received
      .map((r) => r.json as { type: string; time: number; data: Record<string, unknown> })
      .filter((event) => event.type === type);

  it('a review decides a claim (QUEST_SUCCEEDED), a later change is QUEST_CLAIM_STATUS_UPDATED', async () => {
    await setUp();
    const endpoint = await startServer(() => message(200, 'ok'));
    try {
      await addWebhook([
        'QUEST_CLAIMED',
        'QUEST_SUCCEEDED',
        'QUEST_FAILED',
        'QUEST_CLAIM_STATUS_UPDATED',
      ]);
      const { id: questId } = await createQuest(
        mock,
        apiQuest({ endpoint: `${endpoint.url}/verify` }),
      );
      // Reviewed: creation takes no autoValidate, so the test sets it on the record.
      mock.platform.store.quests.update(questId, { autoValidate: false });
      const claimed = await mock.call<ClaimResult>(
        'POST',
        `/__mock/communities/demo/quests/${questId}/claims`,
        { userId: DEMO.users.admin },
      );
      expect(claimed.body.status).toBe('pending');
      expect(claimed.body.deliveries.map((d) => d.eventType)).toEqual(['QUEST_CLAIMED']);
      const review = (status: string) =>
        mock.call('POST', '/public/communities/demo/reviews', {
          claimedQuestIds: [claimed.body.reviewId],
          status,
        });
      for (const status of ['success', 'pending', 'fail']) {
        expect((await review(status)).status).toBe(200);
        await mock.platform.service.idle();
      }
      expect(sentOf('QUEST_SUCCEEDED')).toHaveLength(1);
      expect(sentOf('QUEST_FAILED')).toHaveLength(0);
      expect(sentOf('QUEST_CLAIM_STATUS_UPDATED').map((event) => event.data.status)).toEqual([
        'pending',
        'fail',
      ]);
      const decided = sentOf('QUEST_SUCCEEDED')[0]!.data as QuestEventData;
      expect(decided.quest.lastReviewerId).toEqual(expect.any(String));
      for (const { json } of receiver.received) {
        expect(KnownWebhookEventSchema.safeParse(json).success).toBe(true);
      }
    } finally {
      await endpoint.close();
    }
  });

  it('a ban fires USER_BANNED with its reason; a member leaving fires LEFT_COMMUNITY', async () => {
    await setUp();
    await addWebhook(['USER_BANNED', 'LEFT_COMMUNITY']);
    const ban = await mock.call('POST', `/public/communities/demo/users/${DEMO.users.editor}/ban`, {
      reason: 'Spam',
    });
    expect(ban.status).toBe(200);
    await mock.platform.service.idle();
    const [banned] = sentOf('USER_BANNED');
    expect(banned!.data).toMatchObject({ user: { id: DEMO.users.editor }, reason: 'Spam' });
    const left = await mock.call<{ deliveries: WebhookDeliveryRecord[] }>(
      'DELETE',
      `/__mock/communities/demo/members/${DEMO.users.guest}`,
    );
    expect(left.status).toBe(200);
    expect(left.body.deliveries.map((d) => [d.eventType, d.status])).toEqual([
      ['LEFT_COMMUNITY', 'success'],
    ]);
    expect(sentOf('LEFT_COMMUNITY')[0]!.data).toMatchObject({ user: { id: DEMO.users.guest } });
    const gone = await mock.call<{ deletedAt: string | null }>(
      'GET',
      `/public/communities/demo/users/${DEMO.users.guest}`,
    );
    expect(gone.body.deletedAt).toBe('2025-06-01T12:00:00.000Z');
    expect(
      (await mock.call('DELETE', `/__mock/communities/demo/members/${DEMO.users.guest}`)).status,
    ).toBe(404);
    for (const { json } of receiver.received) {
      expect(KnownWebhookEventSchema.safeParse(json).success).toBe(true);
    }
  });

  it('fires SPRINT_STARTED and SPRINT_ENDED when the clock passes them, at their own time', async () => {
    await setUp();
    await addWebhook(['SPRINT_STARTED', 'SPRINT_ENDED']);
    const store = mock.platform.store;
    // The demo's running sprint ends in 2030; a next one starts right after it.
    const next = {
      ...store.sprints.get(DEMO.sprints.current)!,
      id: '40000000-0000-4000-8000-0000000000aa',
      name: 'Next season',
      startingAt: '2031-01-01T00:00:00.000Z',
      endingAt: '2031-02-01T00:00:00.000Z',
    };
    store.sprints.put(next);
    // Past the control route's bound: the service's own advance.
    await mock.platform.service.advanceClock(
      Date.parse('2031-01-15T00:00:00.000Z') - Date.parse('2025-06-01T12:00:00.000Z'),
    );
    await mock.platform.service.idle();
    const ended = sentOf('SPRINT_ENDED');
    const started = sentOf('SPRINT_STARTED');
    expect(ended.map((event) => (event.data as SprintEventData).sprint.id)).toEqual([
      DEMO.sprints.current,
    ]);
    expect(ended[0]!.time).toBe(Date.parse('2030-12-31T00:00:00.000Z'));
    expect(started.map((event) => (event.data as SprintEventData).sprint.name)).toEqual([
      'Next season',
    ]);
    expect(started[0]!.time).toBe(Date.parse(next.startingAt));
    // Each edge fires once: a further advance past the end fires only the end.
    await advance(40 * 86_400_000);
    await mock.platform.service.idle();
    expect(sentOf('SPRINT_STARTED')).toHaveLength(1);
    expect(sentOf('SPRINT_ENDED')).toHaveLength(2);
    for (const { json } of receiver.received) {
      expect(KnownWebhookEventSchema.safeParse(json).success).toBe(true);
    }
  });
});

describe('1,000 deliveries to a flaky receiver', () => {
  it('keep records and counters in agreement at every step', async () => {
    // The default 5 s limit: a try must fail because the receiver says so, not because the
    // machine is busy, or the receiver's count could differ from the tries.
    // 1,000 tries at once to one receiver: past the default per-target rate, on purpose here.
    await setUp([1_000, 2_000, 4_000, 8_000], 5_000, { perTargetPerSecond: 5_000, burst: 5_000 });
    const random = createPrng(20250601);
    nextReply = () => (random.next() < 0.5 ? message(500, 'flaky') : { status: 200 });
    const hook = await addWebhook(['JOINED_COMMUNITY']);
    const community = mock.platform.store.communities.getBySubdomain('demo')!;
    const dispatched = Array.from({ length: 1000 }, (_, n) =>
      mock.platform.service.deliveries.emit(community, 'JOINED_COMMUNITY', { n }),
    );
    await Promise.all(dispatched.map((d) => d.settled));
    const afterFirst = await expectCountersAgree(hook);
    expect(afterFirst.success + afterFirst.failed).toBe(1000);
    expect(afterFirst.failed).toBeGreaterThan(0);

    // Each step passes at least one retry time; five tries need at most four steps of 8 s.
    let pending = afterFirst.failed;
    for (let step = 0; step < 20 && pending > 0; step++) {
      pending = (await advance(8_000)).body.pending;
      await expectCountersAgree(hook);
    }
    expect(pending).toBe(0);

    const final = await expectCountersAgree(hook);
    expect(final.failed).toBe(0);
    expect(final.success + final.exhausted).toBe(1000);
    expect(final.exhausted).toBeGreaterThan(0);
    const listed = await records(hook);
    expect(listed).toHaveLength(1000);
    expect(receiver.received).toHaveLength(listed.reduce((sum, record) => sum + record.tries, 0));
    for (const record of listed) {
      expect(record.tries).toBeGreaterThanOrEqual(1);
      expect(record.tries).toBeLessThanOrEqual(5);
      if (record.status === 'exhausted') expect(record.tries).toBe(5);
    }
    expect(await records(hook, '&statusFilter=success')).toHaveLength(final.success);
    // About 2,000 real HTTP calls: a few seconds on a small machine running other suites.
  }, 30_000);
});

describe('on the system clock', () => {
  it('retries on real timers, and the clock cannot be advanced', async () => {
    const errors: unknown[] = [];
    const platform = createMockPlatform({
      endpointChecks: false,
      rateLimit: false,
      onError: (error) => errors.push(error),
      webhooks: { retryDelaysMs: [20], timeoutMs: 2_000 },
    });
    try {
      nextReply = (index) => (index === 0 ? message(500, 'once') : { status: 200 });
      const community = platform.store.communities.getBySubdomain('demo')!;
      for (const id of Object.values(DEMO.webhooks)) platform.store.webhooks.delete(id);
      platform.store.webhooks.create(
        {
          id: '00000000-0000-4000-8000-00000000a001',
          communityId: community.id,
          name: 'timer receiver',
          uri: `${receiver.url}/hooks`,
          active: true,
          secret: 'whsec_test',
          events: ['JOINED_COMMUNITY'],
          success: 0,
          failed: 0,
          exhausted: 0,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        },
        100,
      );
      const [first] = await platform.service.deliveries.emit(community, 'JOINED_COMMUNITY', {})
        .settled;
      expect(first!.status).toBe('failed');
      await vi.waitFor(
        () => expect(platform.store.deliveries.get(first!.id)?.status).toBe('success'),
        {
          timeout: 5_000,
          interval: 10,
        },
      );
      expect(receiver.received).toHaveLength(2);

      const refused = await platform.fetch(
        new Request('http://mock.test/__mock/clock/advance', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ms: 1000 }),
        }),
      );
      expect(refused.status).toBe(409);
      const clock = await platform.fetch(new Request('http://mock.test/__mock/clock'));
      expect(await clock.json()).toMatchObject({ mode: 'system', pendingRetries: 0 });
    } finally {
      platform.service.stop();
    }
    expect(errors).toEqual([]);
  });
});

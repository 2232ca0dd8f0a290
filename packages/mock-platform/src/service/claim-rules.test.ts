import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../seed/demo-ids.js';
import {
  apiQuest,
  createQuest,
  createServicePlatform,
  message,
  type Reply,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../service.testkit.js';
import type { ClaimResult } from './claim-result.js';
import { nextPeriodStart } from './claim-rules.js';

// The platform's rules before a claim calls the endpoint: recurrence and retryAfter on the test
// clock (which starts on Sunday 2025-06-01 12:00 UTC), conditions, invites used by a claim.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const { admin: ada, editor, pendingInvitee } = DEMO.users;

let endpoint: TestServer;
let nextReply: (index: number) => Reply;
let mock: ServicePlatform;

beforeEach(async () => {
  nextReply = () => message(200, 'Well done!');
  endpoint = await startServer((_request, index) => nextReply(index));
  mock = createServicePlatform({ endpointChecks: false, verificationTimeoutMs: 2000 });
});

afterEach(async () => {
  mock.platform.service.stop();
  await endpoint.close();
  expect(mock.errors).toEqual([]);
});

const quest = async (extra: Record<string, unknown> = {}) =>
  (await createQuest(mock, apiQuest({ endpoint: `${endpoint.url}/verify` }, extra))).id;

const claim = async (questId: string, userId: string = ada) => {
  const answer = await mock.call<ClaimResult>(
    'POST',
    `/__mock/communities/demo/quests/${questId}/claims`,
    { userId },
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

/** A refusal: failed, the reason, every task skipped, and no call made. */
async function expectRefused(questId: string, reason: string, userId: string = ada) {
  const calls = endpoint.received.length;
  const result = await claim(questId, userId);
  expect(result).toMatchObject({ status: 'failed', reason, xpAwarded: 0 });
  expect(result.tasks.every((task) => task.outcome === 'skipped')).toBe(true);
  expect(endpoint.received).toHaveLength(calls);
  return result;
}

describe('nextPeriodStart', () => {
  it.each([
    ['daily', '2025-06-01T12:00:00.000Z', '2025-06-02T00:00:00.000Z'],
    ['daily', '2025-06-01T23:59:59.999Z', '2025-06-02T00:00:00.000Z'],
    ['weekly', '2025-06-01T12:00:00.000Z', '2025-06-02T00:00:00.000Z'], // a Sunday
    ['weekly', '2025-06-02T00:00:00.000Z', '2025-06-09T00:00:00.000Z'], // a Monday
    ['monthly', '2025-12-31T23:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['monthly', '2025-01-31T10:00:00.000Z', '2025-02-01T00:00:00.000Z'],
  ])('%s after %s is %s', (recurrence, at, next) => {
    expect(nextPeriodStart(recurrence, new Date(at))?.toISOString()).toBe(next);
  });

  it.each(['once', 'hourly', ''])('is null for %j: the quest never opens again', (recurrence) => {
    expect(nextPeriodStart(recurrence, new Date('2025-06-01T12:00:00Z'))).toBeNull();
  });
});

describe('recurrence', () => {
  it('once: a second claim is refused before any call, even a year later', async () => {
    const questId = await quest({ recurrence: 'once' });
    expect((await claim(questId)).status).toBe('success');
    const again = await expectRefused(questId, 'already-claimed');
    expect(again.message).toBe('You have already claimed this quest.');
    await mock.platform.service.advanceClock(365 * DAY);
    await expectRefused(questId, 'already-claimed');
    // Another member still may.
    expect((await claim(questId, editor)).status).toBe('success');
  });

  it('daily: refused until the next UTC midnight on the test clock, then claimed', async () => {
    const questId = await quest({ recurrence: 'daily' });
    expect((await claim(questId)).status).toBe('success');
    const again = await expectRefused(questId, 'already-claimed');
    expect(again.message).toContain('opens again on 2 Jun 2025, 00:00 UTC');
    await mock.platform.service.advanceClock(12 * HOUR - 1);
    await expectRefused(questId, 'already-claimed');
    await mock.platform.service.advanceClock(1);
    expect((await claim(questId)).status).toBe('success');
    expect(mock.platform.store.quests.get(questId)!.claimCount).toBe(2);
  });

  it('weekly and monthly reopen on the next Monday and the first of the next month', async () => {
    const weekly = await quest({ recurrence: 'weekly' });
    const monthly = await quest({ recurrence: 'monthly' });
    expect((await claim(weekly)).status).toBe('success');
    expect((await claim(monthly)).status).toBe('success');
    await mock.platform.service.advanceClock(12 * HOUR); // Monday 2025-06-02 00:00
    expect((await claim(weekly)).status).toBe('success');
    await expectRefused(weekly, 'already-claimed');
    await expectRefused(monthly, 'already-claimed');
    await mock.platform.service.advanceClock(29 * DAY); // 2025-07-01 00:00
    expect((await claim(monthly)).status).toBe('success');
  });

  it('a refused or failed claim does not count as claimed', async () => {
    nextReply = (index) => (index === 0 ? message(400, 'Not yet') : message(200, 'Done'));
    const questId = await quest({ recurrence: 'once' });
    expect((await claim(questId)).reason).toBe('not-verified');
    expect((await claim(questId)).status).toBe('success');
  });

  it('one claim at a time per member and quest: a concurrent one calls nothing', async () => {
    nextReply = () => ({ ...message(200, 'ok'), delayMs: 100 });
    const questId = await quest({ recurrence: 'once' });
    const [first, second] = await Promise.all([claim(questId), claim(questId)]);
    expect([first!.reason, second!.reason].sort()).toEqual(['claim-in-progress', 'claimed']);
    expect(endpoint.received).toHaveLength(1);
  });
});

describe('retryAfter', () => {
  it('after a failed verification, waits that many seconds on the test clock', async () => {
    nextReply = (index) => (index === 0 ? message(400, 'Not yet') : message(200, 'Done'));
    const questId = await quest({ retryAfter: 3600 });
    expect((await claim(questId)).reason).toBe('not-verified');
    const early = await expectRefused(questId, 'retry-later');
    expect(early.message).toBe(
      'Please wait 3600 s before trying this quest again (at 1 Jun 2025, 13:00 UTC).',
    );
    await mock.platform.service.advanceClock(HOUR - 1000);
    expect((await expectRefused(questId, 'retry-later')).message).toContain('wait 1 s');
    await mock.platform.service.advanceClock(1000);
    expect((await claim(questId)).status).toBe('success');
  });

  it('counts from an endpoint fault too, and not at all when 0 or null', async () => {
    nextReply = () => message(500, 'boom');
    const waits = await quest({ retryAfter: 60 });
    expect((await claim(waits)).reason).toBe('endpoint-fault');
    await expectRefused(waits, 'retry-later');
    for (const retryAfter of [0, null]) {
      const questId = await quest({ retryAfter });
      expect((await claim(questId)).reason).toBe('endpoint-fault');
      expect((await claim(questId)).reason).toBe('endpoint-fault');
    }
  });
});

describe('conditions', () => {
  const level = (operator: string, value: string) => ({ type: 'level', operator, value });

  it('level compares the member’s level with the operator as written', async () => {
    // ada is level 16 (12,500 xp).
    const high = await quest({ conditions: [level('>=', '17')] });
    const refused = await expectRefused(high, 'condition-not-met');
    expect(refused.message).toBe('Your level must be >= 17 (it is 16).');
    expect((await claim(await quest({ conditions: [level('>=', '16')] }))).status).toBe('success');
    expect((await claim(await quest({ conditions: [level('=', '16')] }))).status).toBe('success');
    await expectRefused(await quest({ conditions: [level('<', '2')] }), 'condition-not-met');
  });

  it('quest isCompleted needs a successful claim of that quest', async () => {
    const first = await quest({ name: 'First steps' });
    const next = await quest({
      conditions: [{ type: 'quest', operator: 'isCompleted', value: first }],
    });
    const refused = await expectRefused(next, 'condition-not-met');
    expect(refused.message).toBe('Complete the quest "First steps" first.');
    expect((await claim(first)).status).toBe('success');
    expect((await claim(next)).status).toBe('success');
  });

  it('AND needs every condition, OR one of them', async () => {
    const conditions = [level('>=', '99'), level('>=', '1')];
    const all = await expectRefused(await quest({ conditions }), 'condition-not-met');
    expect(all.message).toBe('Your level must be >= 99 (it is 16).');
    const any = await quest({ conditions, conditionOperator: 'OR' });
    expect((await claim(any)).status).toBe('success');
  });

  it('a condition the mock cannot evaluate refuses the claim and says so', async () => {
    const questId = await quest({ conditions: [{ type: 'karma', operator: '>', value: '3' }] });
    const refused = await expectRefused(questId, 'condition-not-met');
    expect(refused.message).toBe('The mock cannot evaluate the condition karma > 3.');
  });
});

describe('invites', () => {
  const invites = async (userId: string, query = '') =>
    (
      await mock.call<{ userId: string; status: string }[]>(
        'GET',
        `/public/communities/demo/users/${userId}/invites?page=1&page_size=100${query}`,
      )
    ).body;

  it('a claim uses the invites its condition asks for, oldest first; they cannot be used again', async () => {
    const questId = await quest({
      recurrence: 'once',
      conditions: [{ type: 'invites', operator: '>=', value: '2' }],
    });
    const activeBefore = (await invites(ada)).filter((invite) => invite.status === 'active');
    expect(activeBefore.length).toBeGreaterThanOrEqual(2);

    expect((await claim(questId)).status).toBe('success');
    const used = await invites(ada, `&invitesQuestId=${questId}`);
    expect(used.map((invite) => [invite.userId, invite.status])).toEqual(
      activeBefore.slice(0, 2).map((invite) => [invite.userId, 'consumed']),
    );
    const activeAfter = (await invites(ada)).filter((invite) => invite.status === 'active');
    expect(activeAfter).toHaveLength(activeBefore.length - 2);

    // A member without active invites is refused before any call.
    const refused = await expectRefused(questId, 'condition-not-met', editor);
    expect(refused.message).toBe('Invite 2 members first (you have 0 active invites).');
  });

  it('a failed claim uses none', async () => {
    nextReply = () => message(400, 'Not yet');
    const questId = await quest({ conditions: [{ type: 'invites', operator: '>=', value: '1' }] });
    const before = await invites(ada);
    expect((await claim(questId)).reason).toBe('not-verified');
    expect(await invites(ada)).toEqual(before);
  });

  it('a pending invite turns active when the invited member reaches the minimum xp', async () => {
    // pendingInvitee has 20 xp; the demo community asks 100 before an invite counts.
    const status = async () =>
      (await invites(ada)).find((invite) => invite.userId === pendingInvitee)?.status;
    expect(await status()).toBe('pending');
    const questId = await quest({ rewards: [{ type: 'xp', value: 100 }] });
    expect((await claim(questId, pendingInvitee)).status).toBe('success');
    expect(await status()).toBe('active');
  });
});

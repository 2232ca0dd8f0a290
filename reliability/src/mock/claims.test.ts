/**
 * Claims under load: many claims at once through the mock's control route, against a local
 * verification endpoint that answers slowly or fails at random (5xx, HTML, bad JSON, resets,
 * silence, past the time limit). Each claim must end with one outcome that matches what the
 * endpoint did, one journal record, and one call: nothing lost, nothing sent twice.
 */
import { DEMO, generatedUserId } from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';
import { COUNTS } from '../config.js';
import { type Action, type Received, spread, startEndpoint } from '../harness/local-endpoint.js';
import { LeakScanner } from '../harness/secrets.js';
import { startMock } from '../harness/server-process.js';
import { record } from '../report/record.js';

const RW = DEMO.apiKeys.readWrite;
// The platform's limit. Slow answers take at most a tenth of it and late ones come 5 s past it: a
// busy machine, 150 claims at once beside other suites, delays answers by seconds, not by 9.
const TIMEOUT_MS = 10_000;
const SLOW_MS = 1_000;
const LATE_MS = TIMEOUT_MS + 5_000;
const TASK_KEY = 'qk-task-key-7c1d9e3a5b2f4a6c8e0d1f3b5a7c9e2d';
const XP = 10;

/** What the endpoint does for a requestId, and the outcome the platform must record for it. */
const BEHAVIOURS: { name: string; share: number; outcome: string; act: (r: Received) => Action }[] =
  [
    {
      name: 'ok, at once',
      share: 0.2,
      outcome: 'verified',
      act: () => ({ kind: 'answer', status: 200, body: '{"message":"Verified."}' }),
    },
    {
      name: 'ok, slowly',
      share: 0.15,
      outcome: 'verified',
      act: (r) => ({
        kind: 'answer',
        status: 200,
        body: '{"message":"Verified, slowly."}',
        delayMs: Math.floor(spread(`${r.body}d`) * SLOW_MS),
      }),
    },
    {
      name: 'not verified',
      share: 0.2,
      outcome: 'not-verified',
      act: () => ({
        kind: 'answer',
        status: 400,
        body: '{"message":"Follow the account first."}',
        delayMs: 20,
      }),
    },
    {
      name: '500',
      share: 0.1,
      outcome: 'fault',
      act: () => ({ kind: 'answer', status: 500, body: '{"message":"boom"}' }),
    },
    {
      name: 'past the time limit',
      share: 0.08,
      outcome: 'fault',
      act: () => ({
        kind: 'answer',
        status: 200,
        body: '{"message":"Too late."}',
        delayMs: LATE_MS,
      }),
    },
    { name: 'connection reset', share: 0.07, outcome: 'fault', act: () => ({ kind: 'reset' }) },
    { name: 'no answer', share: 0.05, outcome: 'fault', act: () => ({ kind: 'hang' }) },
    {
      name: 'HTML page',
      share: 0.05,
      outcome: 'fault',
      act: () => ({ kind: 'answer', status: 200, contentType: 'text/html', body: '<h1>OK</h1>' }),
    },
    {
      name: 'invalid JSON',
      share: 0.05,
      outcome: 'fault',
      act: () => ({ kind: 'answer', status: 200, body: '{"message":' }),
    },
    {
      name: 'empty message',
      share: 0.05,
      outcome: 'fault',
      act: () => ({ kind: 'answer', status: 400, body: '{"message":""}' }),
    },
  ];

function behaviourOf(requestId: string) {
  let x = spread(requestId);
  for (const behaviour of BEHAVIOURS) {
    if (x < behaviour.share) return behaviour;
    x -= behaviour.share;
  }
  return BEHAVIOURS[0]!;
}

const CLAIM = {
  verified: ['success', 'claimed'],
  'not-verified': ['failed', 'not-verified'],
  fault: ['error', 'endpoint-fault'],
} as const;

interface ClaimAnswer {
  status: string;
  reason: string;
  requestId: string;
  userId: string;
  xpAwarded: number;
  tasks: { outcome: string }[];
}

/** Enough generated members for one claim each among those with an email (two in three). */
const SEED_USERS = Math.ceil((COUNTS.concurrentClaims * 3) / 2) + 3;

describe('claims under load', () => {
  it(`${COUNTS.concurrentClaims} concurrent claims: one outcome, one journal record and one call each`, async () => {
    const endpoint = await startEndpoint((request) => {
      const requestId = (JSON.parse(request.body) as { requestId?: string }).requestId ?? '';
      return behaviourOf(requestId).act(request);
    });
    const mock = await startMock({
      rateLimit: false,
      seedUsers: SEED_USERS,
      verificationTimeoutMs: TIMEOUT_MS,
      serviceJournalSize: COUNTS.concurrentClaims * 2,
      claimCounterRefreshMs: 0,
      // Every claim at once to one endpoint: past the default per-target rate, on purpose here.
      outbound: {
        concurrency: COUNTS.concurrentClaims,
        perTargetPerSecond: COUNTS.concurrentClaims * 2,
        burst: COUNTS.concurrentClaims * 2,
      },
    });
    const origin = `http://127.0.0.1:${mock.port}`;
    const scanner = new LeakScanner([TASK_KEY]);
    const violations: string[] = [];
    try {
      const created = await fetch(`${origin}/public/communities/demo/quests`, {
        method: 'POST',
        headers: { 'x-api-key': RW, 'content-type': 'application/json' },
        body: JSON.stringify({
          categoryId: DEMO.modules.community,
          name: 'Claims under load',
          published: true,
          recurrence: 'daily',
          conditionOperator: 'AND',
          rewards: [{ type: 'xp', value: XP }],
          tasks: [
            {
              type: 'api',
              settings: {
                endpoint: `${endpoint.url}/verify`,
                apiKey: TASK_KEY,
                identifications: ['email'],
              },
            },
          ],
        }),
      });
      expect(created.status).toBe(200);
      const questId = ((await created.json()) as { id: string }).id;

      // Members with an email (every third generated one has none), one claim each: the quest is
      // daily, so a member's second claim would be refused before any call.
      const members = Array.from({ length: SEED_USERS }, (_, i) => i)
        .filter((i) => i % 3 !== 0)
        .map(generatedUserId);
      const xpOf = async (userId: string) =>
        (
          (await (
            await fetch(`${origin}/public/communities/demo/users/${userId}`, {
              headers: { 'x-api-key': RW },
            })
          ).json()) as { xp: number }
        ).xp;
      const xpBefore = new Map(
        await Promise.all(members.map(async (id) => [id, await xpOf(id)] as const)),
      );

      const answers = await Promise.all(
        Array.from({ length: COUNTS.concurrentClaims }, async (_, i) => {
          const userId = members[i % members.length]!;
          const response = await fetch(
            `${origin}/__mock/communities/demo/quests/${questId}/claims`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ userId }),
            },
          );
          const text = await response.text();
          scanner.scan('claim answer', text);
          if (response.status !== 200) {
            violations.push(`claim ${i}: status ${response.status} ${text.slice(0, 120)}`);
            return undefined;
          }
          return JSON.parse(text) as ClaimAnswer;
        }),
      );
      const claims = answers.filter((answer): answer is ClaimAnswer => answer !== undefined);

      // One outcome per claim, the one the endpoint's behaviour calls for.
      const requestIds = new Set<string>();
      const outcomes = new Map<string, number>();
      for (const claim of claims) {
        if (requestIds.has(claim.requestId))
          violations.push(`requestId ${claim.requestId} used twice`);
        requestIds.add(claim.requestId);
        const behaviour = behaviourOf(claim.requestId);
        const [status, reason] = CLAIM[behaviour.outcome as keyof typeof CLAIM];
        if (
          claim.status !== status ||
          claim.reason !== reason ||
          claim.tasks.length !== 1 ||
          claim.tasks[0]?.outcome !== behaviour.outcome
        ) {
          violations.push(
            `claim ${claim.requestId} (${behaviour.name}): ${claim.status}/${claim.reason}/${claim.tasks[0]?.outcome}`,
          );
        }
        outcomes.set(behaviour.name, (outcomes.get(behaviour.name) ?? 0) + 1);
      }

      // One call per claim reached the endpoint, with the key and the claim's body.
      const calls = new Map<string, number>();
      for (const request of endpoint.received) {
        const body = JSON.parse(request.body) as {
          requestId: string;
          questId: string;
          userId: string;
          accounts?: { email?: string };
        };
        calls.set(body.requestId, (calls.get(body.requestId) ?? 0) + 1);
        if (request.headers['x-api-key'] !== TASK_KEY)
          violations.push(`call ${body.requestId} without the task key`);
        if (body.questId !== questId || !body.accounts?.email)
          violations.push(`call ${body.requestId} with a wrong body`);
      }
      for (const [requestId, count] of calls) {
        if (count !== 1) violations.push(`requestId ${requestId} called ${count} times`);
        if (!requestIds.has(requestId)) violations.push(`call ${requestId} of no claim`);
      }
      for (const requestId of requestIds)
        if (!calls.has(requestId)) violations.push(`claim ${requestId} never called`);

      // One journal record per claim, with the claim's outcome.
      const journalText = await (await fetch(`${origin}/__mock/calls?questId=${questId}`)).text();
      scanner.scan('call journal', journalText);
      const journal = JSON.parse(journalText) as { requestId: string; outcome: string }[];
      const journaled = new Map<string, string[]>();
      for (const entry of journal)
        journaled.set(entry.requestId, [...(journaled.get(entry.requestId) ?? []), entry.outcome]);
      for (const claim of claims) {
        const entries = journaled.get(claim.requestId) ?? [];
        if (entries.length !== 1 || entries[0] !== claim.tasks[0]?.outcome) {
          violations.push(`journal of ${claim.requestId}: ${JSON.stringify(entries)}`);
        }
      }
      if (journal.length !== claims.length)
        violations.push(`${journal.length} journal records for ${claims.length} claims`);

      // The store: xp awarded once per success, the live claim count equal to the successes.
      const successes = claims.filter((claim) => claim.status === 'success');
      const perUser = new Map<string, number>();
      for (const claim of successes)
        perUser.set(claim.userId, (perUser.get(claim.userId) ?? 0) + 1);
      for (const userId of members) {
        const delta = (await xpOf(userId)) - (xpBefore.get(userId) ?? 0);
        if (delta !== XP * (perUser.get(userId) ?? 0))
          violations.push(`member ${userId}: xp +${delta} for ${perUser.get(userId) ?? 0} claims`);
      }
      const quests = (await (
        await fetch(`${origin}/public/communities/demo/quests?limit=100`, {
          headers: { 'x-api-key': RW },
        })
      ).json()) as { id: string; claimCounter: number }[];
      const counter = quests.find((quest) => quest.id === questId)?.claimCounter;
      if (counter !== successes.length)
        violations.push(`claimCounter ${counter} for ${successes.length} successes`);
      for (const leak of scanner.leaks) violations.push(`task key in ${leak.where}`);
      const crash = mock.crash();
      if (crash) violations.push(`mock crashed: ${JSON.stringify(crash)}`);
      for (const event of mock.onErrors)
        violations.push(`internal error: ${event.text.slice(0, 200)}`);
      if (!crash && (await mock.stats()).unhandledRejections > 0)
        violations.push('unhandled rejections');

      const faults = claims.filter(
        (claim) => behaviourOf(claim.requestId).outcome === 'fault',
      ).length;
      record({
        area: 'Mock platform: claims under load',
        subject: `${COUNTS.concurrentClaims} concurrent claims, ${TIMEOUT_MS} ms limit`,
        requests: COUNTS.concurrentClaims,
        faults,
        held:
          `endpoint behaviours: ${[...outcomes.entries()].map(([name, count]) => `${count} ${name}`).join(', ')}; ` +
          `every claim one outcome matching its endpoint's behaviour (${successes.length} claimed), one journal record, ` +
          `exactly one call (${endpoint.received.length} received, none twice); xp and claimCounter equal to the ` +
          'successes; the task key in no answer or journal',
        violations: violations.length,
      });
    } finally {
      await mock.close();
      await endpoint.close();
    }
    expect(violations.slice(0, 30)).toEqual([]);
  });
});

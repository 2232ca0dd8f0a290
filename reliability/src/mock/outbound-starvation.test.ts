/**
 * One key holder floods the mock's automatic endpoint checks (quests of 50 API tasks, spread over
 * silent targets that never answer), then members claim a quest whose endpoint is healthy. Each
 * claim must be verified while every check still waits on its silent target: members never wait
 * behind automatic checks, which run one at a time per key holder, past a cap recorded as skipped.
 */
import { DEMO, generatedUserId } from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import { startEndpoint } from '../harness/local-endpoint.js';
import { startMock } from '../harness/server-process.js';
import { n, record } from '../report/record.js';

const RW = DEMO.apiKeys.readWrite;
/** The report's figures: 25 quests of 50 tasks over 20 silent targets; CI 5 over 4. */
const QUESTS = FULL ? 25 : 5;
const TARGETS = FULL ? 20 : 4;
const TASKS = 50;
const CLAIMS = FULL ? 40 : 10;
const SEED_USERS = CLAIMS * 2;
/** The mock's default: a key holder's automatic checks queued or running in a community. */
const CHECKS_PER_KEY = 50;

describe('automatic endpoint checks cannot starve members', () => {
  it(`${QUESTS} quests × ${TASKS} tasks over ${TARGETS} silent targets, then ${CLAIMS} claims to a healthy endpoint`, async () => {
    const silent = await Promise.all(
      Array.from({ length: TARGETS }, () => startEndpoint(() => ({ kind: 'hang' }))),
    );
    const healthy = await startEndpoint(() => ({
      kind: 'answer',
      status: 200,
      body: '{"message":"Verified."}',
    }));
    // The platform's own 10 s limit: every check stays waiting on its silent target for that long.
    const mock = await startMock({
      seedUsers: SEED_USERS,
      endpointChecks: true,
      serviceJournalSize: QUESTS * TASKS + CLAIMS * 2,
    });
    const origin = `http://127.0.0.1:${mock.port}`;
    const headers = { 'x-api-key': RW, 'content-type': 'application/json' };
    const quest = (tasks: { endpoint: string }[]) =>
      fetch(`${origin}/public/communities/demo/quests`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          categoryId: DEMO.modules.community,
          name: 'Outbound starvation',
          published: true,
          recurrence: 'daily',
          conditionOperator: 'AND',
          rewards: [{ type: 'xp', value: 10 }],
          tasks: tasks.map(({ endpoint }) => ({
            type: 'api',
            settings: { endpoint, apiKey: 'task-key', identifications: ['email'] },
          })),
        }),
      });
    const violations: string[] = [];
    try {
      for (let q = 0; q < QUESTS; q++) {
        const tasks = Array.from({ length: TASKS }, (_, t) => ({
          endpoint: `${silent[(q * TASKS + t) % TARGETS]!.url}/verify`,
        }));
        const answer = await quest(tasks);
        if (answer.status !== 200) violations.push(`quest ${q}: ${answer.status}`);
      }
      const created = await quest([{ endpoint: `${healthy.url}/verify` }]);
      const questId = ((await created.json()) as { id: string }).id;
      // Members with an email (every third generated one has none), one claim each.
      const members = Array.from({ length: SEED_USERS }, (_, i) => i)
        .filter((i) => i % 3 !== 0)
        .map(generatedUserId)
        .slice(0, CLAIMS);
      const claims = await Promise.all(
        members.map(async (userId) => {
          const response = await fetch(
            `${origin}/__mock/communities/demo/quests/${questId}/claims`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ userId }),
            },
          );
          return (await response.json()) as { status: string; reason: string };
        }),
      );
      // Read at once: no check can have finished, since no silent target ever answers before 10 s.
      const checks = (await (await fetch(`${origin}/__mock/endpoint-checks`)).json()) as {
        state: string;
        questId: string | null;
      }[];
      const automatic = checks.filter((check) => check.questId !== questId);
      const done = automatic.filter((check) => check.state === 'done').length;
      const running = automatic.filter((check) => check.state === 'running').length;
      const skipped = automatic.filter((check) => check.state === 'skipped').length;
      for (const [i, claim] of claims.entries()) {
        if (claim.status !== 'success')
          violations.push(`claim ${i}: ${claim.status} ${claim.reason}`);
      }
      if (done > 0) violations.push(`${done} checks finished before the claims were answered`);
      if (running > 1) violations.push(`${running} checks of one key holder running at once`);
      if (skipped !== QUESTS * TASKS - CHECKS_PER_KEY)
        violations.push(`${skipped} checks skipped, ${QUESTS * TASKS - CHECKS_PER_KEY} expected`);
      if (healthy.received.length !== CLAIMS)
        violations.push(`the healthy endpoint got ${healthy.received.length} calls`);
      record({
        area: 'Mock platform: outbound gate',
        subject: `${QUESTS} quests × ${TASKS} API tasks over ${TARGETS} silent targets, then ${CLAIMS} claims`,
        requests: QUESTS + 1 + CLAIMS + silent.reduce((sum, e) => sum + e.received.length, 0),
        faults: QUESTS * TASKS,
        held:
          `${n(CLAIMS)} members' claims to a healthy endpoint verified while every automatic check still waited on a silent target; ` +
          `one check of the key holder running at a time, ${n(skipped)} past the cap of ${CHECKS_PER_KEY} recorded as skipped`,
        violations: violations.length,
      });
    } finally {
      await mock.close();
      await Promise.all([healthy, ...silent].map((endpoint) => endpoint.close()));
    }
    expect(violations.slice(0, 30)).toEqual([]);
  });
});

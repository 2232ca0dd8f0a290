import { QUEST_TASKS_MAX } from '@questkit/core/api';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiQuest,
  createQuest,
  createServicePlatform,
  message,
  type ServicePlatform,
  startServer,
  type TestServer,
} from '../../service.testkit.js';
import type { ClaimResult } from '../claim-result.js';

// Attack of issue 49: one quest creation with thousands of API tasks made the mock POST an
// endpoint check per task, all at once, to a URL of the caller's choice.

// The per-target buckets refill by this clock: standing still, a test's verdict cannot depend on
// how fast the machine runs.
const STANDING = { now: () => new Date('2025-06-01T12:00:00.000Z') };

let endpoint: TestServer | undefined;
let service: ServicePlatform | undefined;
afterEach(async () => {
  service?.platform.service.stop();
  await endpoint?.close();
  endpoint = undefined;
  service = undefined;
});

/** A slow endpoint that counts how many calls it holds at once. */
async function slowEndpoint() {
  let inFlight = 0;
  let most = 0;
  endpoint = await startServer(async () => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inFlight -= 1;
    return message(400, 'Not verified.');
  });
  return { url: `${endpoint.url}/verify`, most: () => most };
}

const tasks = (count: number, url: string) =>
  Array.from({ length: count }, () => ({
    type: 'api',
    settings: { endpoint: url, apiKey: 'task-key', identifications: ['email'] },
  }));

describe('tasks per quest: capped in the contract schema', () => {
  it('refuses 1,000 API tasks with a 400 that names tasks, and calls nobody', async () => {
    const target = await slowEndpoint();
    service = createServicePlatform();
    const answer = await service.call<{ message: string; issues?: Array<{ path: unknown[] }> }>(
      'POST',
      '/public/communities/demo/quests',
      { ...apiQuest({}), tasks: tasks(1000, target.url) },
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/tasks/);
    expect(answer.text).toContain(String(QUEST_TASKS_MAX));
    await service.platform.service.idle();
    expect(endpoint!.received).toHaveLength(0);
  });

  it('states the cap in the OpenAPI document the client and docs are made from', () => {
    service = createServicePlatform();
    const document = JSON.stringify(service.platform.openapi());
    expect(document.includes(`"maxItems":${QUEST_TASKS_MAX}`)).toBe(true);
  });
});

describe('every outbound call through one limiter', () => {
  it('endpoint checks: at most `checkConcurrency` at once, a tenth of `burst` to one target, every refusal recorded', async () => {
    const target = await slowEndpoint();
    service = createServicePlatform({
      // Checks get a tenth of the per-target rate: 1 a second, a burst of 8. Past the burst, a
      // call's turn is a second away, more than its 600 ms limit: refused.
      verificationTimeoutMs: 600,
      outbound: { checkConcurrency: 3, perTargetPerSecond: 10, burst: 80, clock: STANDING },
    });
    await createQuest(service, { ...apiQuest({}), tasks: tasks(QUEST_TASKS_MAX, target.url) });
    await service.platform.service.idle();
    expect(target.most()).toBeLessThanOrEqual(3);
    expect(endpoint!.received).toHaveLength(8);
    const checks = service.platform.service.endpointChecks.list();
    expect(checks).toHaveLength(QUEST_TASKS_MAX);
    // A check skips its other probes once its first got no answer: those were never tried.
    const calls = checks.flatMap((check) => check.calls).filter((call) => call.status !== 'skip');
    const answered = calls.filter((call) => call.answerStatus !== null);
    const refused = calls.filter((call) => /not sent/.test(call.error ?? ''));
    expect(answered).toHaveLength(8);
    expect(answered.length + refused.length).toBe(calls.length);
    const refusals = service.platform.service.outbound.refusals();
    expect(refusals).toHaveLength(refused.length);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ kind: 'endpoint-check', target: new URL(target.url).host });
      expect(refusal.reason).toMatch(/per second/);
    }
  });

  it('claims: a call whose turn is further than its time limit is refused, recorded, and the claim says why', async () => {
    const target = await slowEndpoint();
    service = createServicePlatform({
      endpointChecks: false,
      // The second call's turn is a second away (1 a second, nothing refills): past 300 ms.
      verificationTimeoutMs: 300,
      outbound: { concurrency: 3, perTargetPerSecond: 1, burst: 1, clock: STANDING },
    });
    const { id } = await createQuest(service, apiQuest({ endpoint: target.url }));
    const claim = (userId: string) =>
      service!.call<ClaimResult>('POST', `/__mock/communities/demo/quests/${id}/claims`, {
        userId,
      });
    const first = await claim('10000000-0000-4000-8000-000000000001');
    const second = await claim('10000000-0000-4000-8000-000000000002');
    expect(first.body.reason).not.toBe('endpoint-fault');
    expect(second.body).toMatchObject({ status: 'error', reason: 'endpoint-fault' });
    expect(endpoint!.received).toHaveLength(1);
    const call = service.platform.service.calls.list({ questId: id }).at(-1);
    expect(call?.error).toMatch(/not sent/);
    expect(service.platform.service.outbound.refusals()).toMatchObject([
      { kind: 'claim', target: new URL(target.url).host },
    ]);
  });
});
